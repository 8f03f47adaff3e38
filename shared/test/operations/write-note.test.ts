import { describe, expect, it } from "vitest";
import { CustodyClient } from "../../src/client/custody-client.js";
import { InvalidInputError } from "../../src/client/errors.js";
import { DEFAULT_POLICY } from "../../src/policy/policy.js";
import { formatIssues } from "../../src/schemas/validation-message.js";
import { sanitizeUntrustedText } from "../../src/untrusted/untrusted-text.js";
import { noteTextProblem, WriteNote } from "../../src/operations/write-note.js";
import { WriteRequest } from "../../src/writes/write-registry.js";
import { planWrite } from "../../src/write-road/plan-write.js";

// The note shown at a dry run is the note sent: a character the display would drop or that
// reorders or hides text is refused at input, naming the field and the character.

const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

describe("noteTextProblem", () => {
  it("refuses zero-width, bidirectional and other control or format characters, naming the first one", () => {
    const named = [
      ...Array.from({ length: 5 }, (_, at) => 0x200b + at),
      ...Array.from({ length: 5 }, (_, at) => 0x202a + at),
      ...Array.from({ length: 4 }, (_, at) => 0x2066 + at),
      0x0000, 0x0007, 0x0009, 0x000a, 0x000d, 0x007f, 0x0085, 0x00ad, 0x061c, 0x2028, 0x2029, 0x2060, 0xfeff, 0xe0001,
    ];
    for (const codePoint of named) {
      expect(noteTextProblem(`pay ${String.fromCodePoint(codePoint)}x`), hex(codePoint)).toBe(
        `must not contain invisible or bidirectional control characters (found ${hex(codePoint)} at character 5)`,
      );
    }
  });

  it("refuses every character the display would remove or change, so that nothing shown differs from what is sent", () => {
    for (let codePoint = 0; codePoint <= 0xffff; codePoint += 1) {
      const character = String.fromCharCode(codePoint);
      if (sanitizeUntrustedText(character) !== character) expect(noteTextProblem(character), hex(codePoint)).toBeDefined();
    }
  });

  it("accepts visible text of any script, with spaces and emoji", () => {
    for (const text of ["", "Payroll March", "Überweisung 5 €", "付款 — 第二批", "دفع", "🚀 launch", "a  b"]) expect(noteTextProblem(text), text).toBeUndefined();
  });
});

describe("the note of a write request", () => {
  const send = { kind: "send", account: 1, amount: 1n, recipient: "x", speed: "NORMAL" } as const;

  it("WriteRequest refuses it under note.title or note.content", () => {
    const title = WriteRequest.safeParse({ ...send, note: { title: "refund \u202Egnp.exe", content: "" } });
    expect(title.success).toBe(false);
    expect(formatIssues(title.error!)).toBe("note.title: must not contain invisible or bidirectional control characters (found U+202E at character 8)");
    const content = WriteRequest.safeParse({ ...send, note: { title: "ok", content: "a\u200Bb" } });
    expect(formatIssues(content.error!)).toBe("note.content: must not contain invisible or bidirectional control characters (found U+200B at character 2)");
    expect(WriteNote.parse({ title: "Payroll March", content: "" })).toEqual({ title: "Payroll March", content: "" });
  });

  it("planWrite refuses it before any call, for a surface that did not parse its request", async () => {
    const client = new CustodyClient({ baseUrl: "http://127.0.0.1:9", operator: "bot", retry: { retries: 0 } });
    const ctx = { client, operator: "bot", policy: DEFAULT_POLICY, spentLast24h: () => 0n };
    const refusal = await planWrite(ctx, { ...send, note: { title: "ok", content: "\u2066hidden\u2069" } }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect((refusal as Error).message).toBe("invalid write request: note.content: must not contain invisible or bidirectional control characters (found U+2066 at character 1)");
  });
});
