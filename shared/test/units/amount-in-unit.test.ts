import { describe, expect, it } from "vitest";
import { AmountError, AmountInUnit, toBaseUnits, type AmountRule } from "../../src/index.js";
import { DOT, ETH, SOL } from "./currencies.js";

function refusal(run: () => unknown): AmountError {
  try {
    run();
  } catch (error) {
    if (error instanceof AmountError) return error;
    throw error;
  }
  throw new Error("expected an AmountError, nothing was thrown");
}

describe("toBaseUnits accepts both forms", () => {
  const cases: [AmountInUnit, Parameters<typeof toBaseUnits>[1], bigint][] = [
    [{ base_units: "1500000000" }, SOL, 1_500_000_000n],
    [{ base_units: "0" }, SOL, 0n],
    [{ base_units: "000123" }, SOL, 123n],
    [{ base_units: (2n ** 256n).toString() }, ETH, 2n ** 256n],
    [{ amount: "1.5", unit: "SOL" }, SOL, 1_500_000_000n],
    [{ amount: "1.5", unit: "sol" }, SOL, 1_500_000_000n],
    [{ amount: "1500000000", unit: "lamport" }, SOL, 1_500_000_000n],
    [{ amount: "2.5", unit: "DOT" }, DOT, 25_000_000_000n],
    [{ amount: "21", unit: "Gwei" }, ETH, 21_000_000_000n],
  ];
  it.each(cases)("%j", (input, currency, expected) => {
    expect(toBaseUnits(input, currency)).toBe(expected);
  });
});

describe("toBaseUnits refuses", () => {
  const cases: [unknown, AmountRule, string][] = [
    [{ base_units: "1.5" }, "fractional_base_units", 'amount: base units are whole numbers; a decimal point is not allowed, got "1.5"'],
    [{ base_units: "1.0" }, "fractional_base_units", "a decimal point is not allowed"],
    [{ base_units: "-5" }, "negative", 'amount: must not be negative, got "-5"'],
    [{ base_units: "1e9" }, "exponent", "not with an exponent"],
    [{ base_units: "" }, "empty", 'amount: must be a whole number of base units (digits only), not empty or blank, got ""'],
    [{ base_units: "1,000" }, "separator", "thousands separators"],
    [{ base_units: " 5" }, "whitespace", "must not contain spaces"],
    [{ base_units: "5." }, "trailing_point", "must have a digit after the decimal point"],
    [
      { base_units: 1500000000 },
      "not_a_string",
      "must be a whole number of base units (digits only) written as a string (a number may already have lost digits",
    ],
    [{ amount: "1.5" }, "missing_unit", 'amount: amount "1.5" needs the code of its unit (one of: lamport, SOL), or give base_units instead'],
    [{ amount: "1.5", unit: "" }, "missing_unit", "needs the code of its unit"],
    [{ amount: "1.5", unit: 9 }, "missing_unit", "amount: unit must be a unit code written as a string, got 9"],
    [{ amount: "1.5", unit: "DOT" }, "unknown_unit", 'amount: unit "DOT" is not a unit of SOL; known units: lamport, SOL'],
    [{ amount: "1.5", unit: "lamport" }, "too_many_decimals", 'amount: unit lamport takes whole numbers only, got "1.5"'],
    [{ amount: "-1", unit: "SOL" }, "negative", "must not be negative"],
    [{ amount: 1.5, unit: "SOL" }, "not_a_string", "written as a string"],
    [{ amount: "1", unit: "SOL", base_units: "1000000000" }, "ambiguous_input", "amount: give either base_units or amount with unit, not both"],
    [{ base_units: "5", unit: "SOL" }, "ambiguous_input", "amount: base_units takes no unit; to give a unit, send { amount, unit } instead"],
    [{ base_units: "5", unit: "lamport" }, "ambiguous_input", "base_units takes no unit"],
    [{}, "missing_amount", "amount: must give base_units, or amount with unit"],
    [{ unit: "SOL" }, "missing_amount", "must give base_units, or amount with unit"],
    [null, "missing_amount", "amount: must be { base_units } or { amount, unit }, got null"],
    ["1.5", "missing_amount", 'must be { base_units } or { amount, unit }, got "1.5"'],
  ];
  it.each(cases)("%j -> %s", (input, rule, message) => {
    const error = refusal(() => toBaseUnits(input as AmountInUnit, SOL));
    expect(error.rule).toBe(rule);
    expect(error.field).toBe("amount");
    expect(error.message).toContain(message);
  });

  it("names the caller's field", () => {
    const error = refusal(() => toBaseUnits({ base_units: "0.5" }, SOL, "max_fees"));
    expect(error).toMatchObject({ field: "max_fees", rule: "fractional_base_units" });
    expect(error.message.startsWith("max_fees: ")).toBe(true);
  });
});

describe("AmountInUnit schema", () => {
  it("takes either form and refuses a mix or a bare amount", () => {
    expect(AmountInUnit.safeParse({ base_units: "5" }).success).toBe(true);
    expect(AmountInUnit.safeParse({ amount: "1.5", unit: "SOL" }).success).toBe(true);
    expect(AmountInUnit.safeParse({ amount: "1.5" }).success).toBe(false);
    expect(AmountInUnit.safeParse({ amount: "1", unit: "SOL", base_units: "5" }).success).toBe(false);
    expect(AmountInUnit.safeParse({ base_units: 5 }).success).toBe(false);
  });
});
