import { describe, expect, it } from "vitest";
import { finding, findingMessage, findingText, hasBlocking, localText, type Finding } from "../../src/index.js";

describe("finding", () => {
  it("renders facts as JSON-safe strings, bigints as exact decimal digits", () => {
    const built = finding("warn", "SOME_RULE_HIT", "amount names the field", {
      amount: 123456789012345678901234567890n,
      count: 3,
      flag: true,
      note: "x",
      missing: null,
    });
    expect(built).toEqual({
      code: "SOME_RULE_HIT",
      severity: "warn",
      message: "amount names the field",
      facts: { amount: "123456789012345678901234567890", count: "3", flag: "true", note: "x", missing: "null" },
    });
    expect(JSON.parse(JSON.stringify(built))).toEqual(built);
  });

  it("keeps a message's template and values beside the finding, not in it: what is serialized is the English message alone", () => {
    const built = finding("block", "SOME_AMOUNT_ABOVE", localText("{0} {1} exceeds {2}", "amount", 7, "the balance"), { amount: 7n });
    expect(built).toEqual({ code: "SOME_AMOUNT_ABOVE", severity: "block", message: "amount 7 exceeds the balance", facts: { amount: "7" } });
    expect(Object.keys(built)).toEqual(["code", "severity", "message", "facts"]);
    expect(findingText(built)).toEqual(localText("{0} {1} exceeds {2}", "amount", 7, "the balance"));
    expect(findingMessage(built, (template, ...args) => `${template.toUpperCase()} [${args.join("|")}]`)).toBe("{0} {1} EXCEEDS {2} [amount|7|the balance]");
    const readBack = JSON.parse(JSON.stringify(built)) as Finding;
    expect(findingText(readBack)).toBeUndefined();
    expect(findingMessage(readBack, () => "translated")).toBe("amount 7 exceeds the balance");
    expect(findingMessage(finding("info", "SOME_RULE_OK", "plain"), () => "translated")).toBe("plain");
  });

  it.each(["lower_case", "Mixed_Case", "TRAILING_", "_LEADING", "DOUBLE__UNDERSCORE", "HAS SPACE", ""])("rejects the code %j", (code) => {
    expect(() => finding("info", code, "message")).toThrow(/SCREAMING_SNAKE_CASE/);
  });

  it("rejects an empty message", () => {
    expect(() => finding("info", "SOME_RULE_OK", "")).toThrow();
  });
});

describe("hasBlocking", () => {
  const info = finding("info", "A_OK", "a");
  const warn = finding("warn", "B_WARN", "b");
  const block = finding("block", "C_BLOCK", "c");
  it.each<[string, Finding[], boolean]>([
    ["no findings", [], false],
    ["only info", [info], false],
    ["info and warn", [info, warn], false],
    ["one block among others", [info, block, warn], true],
    ["only block", [block], true],
  ])("%s -> %s", (_name, findings, expected) => {
    expect(hasBlocking(findings)).toBe(expected);
  });
});
