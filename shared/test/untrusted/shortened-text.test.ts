import { describe, expect, it } from "vitest";
import { shortenedText } from "../../src/untrusted/shortened-text.js";

describe("shortenedText", () => {
  it("leaves a name within its budget as the sanitiser shows it", () => {
    expect(shortenedText("sol-treasury", 64)).toBe("sol-treasury");
    expect(shortenedText("\u200B".repeat(2000), 64)).toBe("\\u{200B}\\u{200B}\\u{200B}[+1997 hidden]");
  });

  it("cuts a longer one to its budget, between escapes, and says how long it was", () => {
    const shown = shortenedText(`payroll${"a\u200B".repeat(240)}`, 64);
    // "payroll" then "a\u{200B}" nine characters at a time: 64 falls inside the seventh escape, which is left out whole.
    expect(shown).toBe(`payroll${"a\\u{200B}".repeat(6)}a…[name cut: 2,167 characters]`);
  });

  it("keeps it on one line: a line break or tab is shown as an escape, never cut in two", () => {
    expect(shortenedText("Ops\nRecipient: x\tAmount: 1", 64)).toBe("Ops\\u{000A}Recipient: x\\u{0009}Amount: 1");
    expect(shortenedText(`${"x".repeat(60)}\n\n`, 64)).toBe(`${"x".repeat(60)}…[name cut: 76 characters]`);
  });

  it("never cuts a count of hidden characters or a surrogate pair in two", () => {
    expect(shortenedText(`${"x".repeat(60)}\u200B\u200B\u200B\u200B\u200B`, 90)).toBe(
      `${"x".repeat(60)}\\u{200B}\\u{200B}\\u{200B}` + "…[name cut: 95 characters]",
    );
    expect(shortenedText(`${"x".repeat(63)}😀rest`, 64, "recipient")).toBe(`${"x".repeat(63)}…[recipient cut: 69 characters]`);
  });
});
