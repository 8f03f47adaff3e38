import { describe, expect, it } from "vitest";
import { AmountError, parseBaseUnits, parseDecimal, parseUnits, type AmountRule } from "../../src/index.js";
import { BASE_ONLY, DOT, ETH, SOL } from "./currencies.js";

function refusal(run: () => unknown): AmountError {
  try {
    run();
  } catch (error) {
    if (error instanceof AmountError) return error;
    throw error;
  }
  throw new Error("expected an AmountError, nothing was thrown");
}

describe("parseUnits accepts plain decimals exactly", () => {
  const cases: [string, Parameters<typeof parseUnits>[1], string | undefined, bigint][] = [
    ["1.5", SOL, "SOL", 1_500_000_000n],
    ["1.5", SOL, undefined, 1_500_000_000n],
    ["0", SOL, "SOL", 0n],
    ["0.0", SOL, "SOL", 0n],
    ["0.000000001", SOL, "SOL", 1n],
    ["0.000000100", SOL, undefined, 100n],
    ["1.000000000", SOL, "SOL", 1_000_000_000n],
    ["007", SOL, "SOL", 7_000_000_000n],
    ["00.5", SOL, "SOL", 500_000_000n],
    ["1500000000", SOL, "lamport", 1_500_000_000n],
    ["12.3456789012", DOT, "DOT", 123_456_789_012n],
    ["1", DOT, undefined, 10_000_000_000n],
    ["1", ETH, "ETH", 10n ** 18n],
    ["32", ETH, undefined, 32n * 10n ** 18n],
    ["1.5", ETH, "Gwei", 1_500_000_000n],
    ["0.000000000000000001", ETH, "ETH", 1n],
    ["115792089237316195423570985008687907853269984665640564039457.584007913129639935", ETH, "ETH", 2n ** 256n - 1n],
    ["42", BASE_ONLY, undefined, 42n],
    ["1.5", SOL, "sol", 1_500_000_000n],
    ["7", ETH, "WEI", 7n],
  ];
  it.each(cases)("%j in %s unit %s", (text, currency, unit, expected) => {
    expect(parseUnits(text, currency, unit)).toBe(expected);
  });
});

describe("parseUnits refuses, naming the field and the rule", () => {
  const cases: [unknown, string | undefined, AmountRule, string][] = [
    ["", "SOL", "empty", 'amount: must be a decimal number such as 1.5, not empty or blank, got ""'],
    ["   ", "SOL", "empty", 'amount: must be a decimal number such as 1.5, not empty or blank, got "   "'],
    ["\t\n", "SOL", "empty", "not empty or blank"],
    ["-1", "SOL", "negative", 'amount: must not be negative, got "-1"'],
    ["-0", "SOL", "negative", "must not be negative"],
    [" -1", "SOL", "negative", "must not be negative"],
    ["\u22121", "SOL", "negative", "must not be negative"],
    ["+1", "SOL", "sign", 'amount: must be a decimal number such as 1.5 without a sign, got "+1"'],
    [" 1", "SOL", "whitespace", 'amount: must not contain spaces (no padding, no digit grouping); write a decimal number such as 1.5, got " 1"'],
    ["1 ", "SOL", "whitespace", "must not contain spaces"],
    ["1 000", "SOL", "whitespace", "must not contain spaces"],
    ["1\u00a0000", "SOL", "whitespace", "must not contain spaces"],
    ["NaN", "SOL", "not_a_number", 'amount: must be a decimal number such as 1.5, not NaN or Infinity, got "NaN"'],
    ["Infinity", "SOL", "not_a_number", "not NaN or Infinity"],
    ["inf", "SOL", "not_a_number", "not NaN or Infinity"],
    ["-Infinity", "SOL", "negative", "must not be negative"],
    ["1e9", "SOL", "exponent", 'amount: must be written out in full digits, not with an exponent, got "1e9"'],
    ["1.5E-3", "SOL", "exponent", "not with an exponent"],
    ["1e+3", "SOL", "exponent", "not with an exponent"],
    ["1,000", "SOL", "separator", 'amount: must not contain thousands separators or a decimal comma; use "." as the only separator, got "1,000"'],
    ["1,5", "SOL", "separator", "decimal comma"],
    ["1_000", "SOL", "separator", "thousands separators"],
    ["1'000", "SOL", "separator", "thousands separators"],
    ["1.2.3", "SOL", "multiple_points", 'amount: must contain at most one decimal point, got "1.2.3"'],
    ["1..2", "SOL", "multiple_points", "at most one decimal point"],
    [".5", "SOL", "leading_point", 'amount: must have a digit before the decimal point (write "0.5", not ".5"), got ".5"'],
    [".", "SOL", "leading_point", "must have a digit before the decimal point"],
    ["5.", "SOL", "trailing_point", 'amount: must have a digit after the decimal point (write "5", not "5."), got "5."'],
    ["0x10", "SOL", "invalid_character", 'amount: must contain only digits 0-9 and one "."; found "x" (U+0078), got "0x10"'],
    ["1.5SOL", "SOL", "invalid_character", 'found "S" (U+0053)'],
    ["\uff11", "SOL", "invalid_character", "found U+FF11"],
    ["1\u200b", "SOL", "invalid_character", "found U+200B"],
    ["\u0661", "SOL", "invalid_character", "found U+0661"],
    ["abc", "SOL", "invalid_character", 'found "a"'],
    ["0.0000000001", "SOL", "too_many_decimals", 'amount: unit SOL allows at most 9 decimal places, this has 10, got "0.0000000001"'],
    ["1.0000000000", "SOL", "too_many_decimals", "at most 9 decimal places, this has 10"],
    ["1.5", "lamport", "too_many_decimals", 'amount: unit lamport takes whole numbers only, got "1.5"'],
    ["1.0", "lamport", "too_many_decimals", "takes whole numbers only"],
    ["1", "XYZ", "unknown_unit", 'amount: unit "XYZ" is not a unit of SOL; known units: lamport, SOL'],
    ["1", "", "missing_unit", "amount: must name a unit of SOL (one of: lamport, SOL)"],
    [
      1.5,
      "SOL",
      "not_a_string",
      "amount: must be a decimal number such as 1.5 written as a string (a number may already have lost digits; send the amount as a string), got 1.5",
    ],
    [15n, "SOL", "not_a_string", "written as a string, got 15n"],
    [null, "SOL", "not_a_string", "written as a string, got null"],
    [undefined, "SOL", "not_a_string", "written as a string, got undefined"],
  ];
  it.each(cases)("%s in unit %s -> %s", (text, unit, rule, message) => {
    const error = refusal(() => parseUnits(text as string, SOL, unit));
    expect(error.rule).toBe(rule);
    expect(error.field).toBe("amount");
    expect(error.name).toBe("AmountError");
    expect(error.message).toContain(message);
    expect(error.message.startsWith("amount: ")).toBe(true);
  });

  it("names the field the caller gives", () => {
    const error = refusal(() => parseUnits("-1", SOL, "SOL", "max_fees"));
    expect(error.field).toBe("max_fees");
    expect(error.message).toBe('max_fees: must not be negative, got "-1"');
    const unknown = refusal(() => parseUnits("1", SOL, "DOT", "max_fees"));
    expect(unknown).toMatchObject({ field: "max_fees", rule: "unknown_unit" });
  });

  it("cuts long input in messages", () => {
    const error = refusal(() => parseUnits(`${"9".repeat(70)}x`, SOL, "SOL"));
    expect(error.message).toContain(`got "${"9".repeat(40)}..."`);
  });

  it("refuses a text longer than any amount by its length, before reading it", () => {
    for (const read of [
      () => parseUnits("9".repeat(3_000_000), SOL, "SOL"),
      () => parseBaseUnits("9".repeat(3_000_000), "max_fees"),
      () => parseDecimal("1".repeat(81), 9, "amount"),
    ]) {
      const error = refusal(read);
      expect(error.rule).toBe("too_long");
    }
    expect(refusal(() => parseUnits("9".repeat(3_000_000), SOL, "SOL")).message).toBe("amount: at most 80 characters, got 3000000");
    expect(refusal(() => parseBaseUnits("9".repeat(81), "max_fees")).message).toBe("max_fees: at most 80 characters, got 81");
    expect(parseBaseUnits("9".repeat(80))).toBe(10n ** 80n - 1n);
    expect(refusal(() => parseUnits("1", SOL, "S".repeat(17))).message).toBe("amount: at most 16 characters, got 17");
  });

  it("refuses too many decimals in the default display unit", () => {
    expect(refusal(() => parseUnits("0.00000000001", DOT)).message).toBe('amount: unit DOT allows at most 10 decimal places, this has 11, got "0.00000000001"');
    expect(refusal(() => parseUnits("0.5", BASE_ONLY)).message).toBe('amount: unit unit takes whole numbers only, got "0.5"');
  });
});

describe("parseDecimal", () => {
  it("reads in a bare magnitude", () => {
    expect(parseDecimal("1.25", 2)).toBe(125n);
    expect(parseDecimal("3", 0)).toBe(3n);
    expect(parseDecimal("0.5", 77)).toBe(5n * 10n ** 76n);
  });
  it("names no unit when none is given", () => {
    expect(refusal(() => parseDecimal("1.234", 2, "max_fees")).message).toBe('max_fees: this unit allows at most 2 decimal places, this has 3, got "1.234"');
    expect(refusal(() => parseDecimal("1.2", 0)).message).toBe('amount: this unit takes whole numbers only, got "1.2"');
  });
  it("refuses magnitudes the schema does not allow", () => {
    expect(() => parseDecimal("1", -1)).toThrow(RangeError);
    expect(() => parseDecimal("1", 1.5)).toThrow(RangeError);
    expect(() => parseDecimal("1", 78)).toThrow(/from 0 to 77, got 78/);
    expect(() => parseDecimal("1", Number.NaN)).toThrow(RangeError);
  });
});
