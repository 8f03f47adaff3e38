import { describe, expect, it } from "vitest";
import { CustodyClient } from "../../../src/client/custody-client.js";
import { InvalidInputError } from "../../../src/client/errors.js";
import { DEFAULT_POLICY } from "../../../src/policy/policy.js";
import { formatIssues } from "../../../src/schemas/validation-message.js";
import { sanitizeUntrustedText } from "../../../src/untrusted/untrusted-text.js";
import { noteTextProblem, WriteNote } from "../../../src/kinds/kit/write-note.js";
import { WriteRequest } from "../../../src/kinds/registry.js";
import { planWrite } from "../../../src/write-road/plan-write.js";

// The note shown at a dry run is the note sent: a character the display would drop or that
// reorders or hides text is refused at input, naming the field and the character.

const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

describe("noteTextProblem", () => {
  it("refuses zero-width, bidirectional and other control or format characters, naming the first one", () => {
    const named = [
      ...Array.from({ length: 5 }, (_, at) => 0x200b + at),
      ...Array.from({ length: 5 }, (_, at) => 0x202a + at),
      ...Array.from({ length: 4 }, (_, at) => 0x2066 + at),
      0x0000,
      0x0007,
      0x0009,
      0x000a,
      0x000d,
      0x007f,
      0x0085,
      0x00ad,
      0x061c,
      0x2028,
      0x2029,
      0x2060,
      0xfeff,
      0xe0001,
    ];
    for (const codePoint of named) {
      expect(noteTextProblem(`pay ${String.fromCodePoint(codePoint)}x`), hex(codePoint)).toBe(
        `must not contain invisible or bidirectional control characters (found ${hex(codePoint)} at character 5)`,
      );
    }
  });

  it("refuses exactly the characters the display would drop or escape, and tab and newline (a note is one line), every code point checked", () => {
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      const character = String.fromCodePoint(codePoint);
      const refused = noteTextProblem(character) !== undefined;
      const expected = sanitizeUntrustedText(character) !== character || character === "\t" || character === "\n";
      if (refused !== expected) expect.fail(`${hex(codePoint)}: refused ${refused}, display changes it or it breaks the line ${expected}`);
    }
  });

  it("refuses the invisible characters the display once missed: tags, soft hyphen, fillers, variation selectors", () => {
    for (const codePoint of [0xe0041, 0xe007f, 0xe0000, 0x00ad, 0x034f, 0x180e, 0x115f, 0x1160, 0x3164, 0xffa0, 0xfe0f, 0xe0100, 0x2028, 0x2029]) {
      expect(noteTextProblem(`ok ${String.fromCodePoint(codePoint)}`), hex(codePoint)).toBe(
        `must not contain invisible or bidirectional control characters (found ${hex(codePoint)} at character 4)`,
      );
    }
  });

  it("accepts visible text of any script, with spaces and emoji", () => {
    for (const text of ["", "Payroll March", "Überweisung 5 €", "付款 — 第二批", "دفع", "🚀 launch", "a  b"])
      expect(noteTextProblem(text), text).toBeUndefined();
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
    const long = WriteRequest.safeParse({ ...send, note: { title: `\u202E${"x".repeat(1_000_000)}`, content: "" } });
    // The length is checked first and alone: the million characters are not read one by one.
    expect(formatIssues(long.error!)).toBe("note.title: at most 500 characters, got 1000001");
  });

  it("planWrite refuses it before any call, for a surface that did not parse its request", async () => {
    const client = new CustodyClient({ baseUrl: "http://127.0.0.1:9", operator: "bot", retry: { retries: 0 } });
    const ctx = { client, operator: "bot", policy: DEFAULT_POLICY, role: null, person: null, limitSets: () => Promise.resolve([]), spentLast24h: () => 0n };
    const refusal = await planWrite(ctx, { ...send, note: { title: "ok", content: "\u2066hidden\u2069" } }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect((refusal as Error).message).toBe(
      "invalid write request: note.content: must not contain invisible or bidirectional control characters (found U+2066 at character 1)",
    );
  });
});
