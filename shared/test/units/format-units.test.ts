import { describe, expect, it } from "vitest";
import { AmountError, formatAmount, formatDecimal, formatUnits } from "../../src/index.js";
import { BASE_ONLY, DOT, ETH, SOL, USDC } from "./currencies.js";

describe("formatUnits writes canonical decimal text", () => {
  const cases: [bigint, Parameters<typeof formatUnits>[1], string | undefined, string][] = [
    [1_500_000_000n, SOL, undefined, "1.5"],
    [1_500_000_000n, SOL, "SOL", "1.5"],
    [1_500_000_000n, SOL, "lamport", "1500000000"],
    [0n, SOL, undefined, "0"],
    [0n, SOL, "lamport", "0"],
    [1n, SOL, undefined, "0.000000001"],
    [1_000_000_000n, SOL, undefined, "1"],
    [10_000_000_000n, SOL, undefined, "10"],
    [1_000_000_010n, SOL, undefined, "1.00000001"],
    [123_456_789_012n, DOT, undefined, "12.3456789012"],
    [1n, DOT, "DOT", "0.0000000001"],
    [32n * 10n ** 18n, ETH, undefined, "32"],
    [1n, ETH, undefined, "0.000000000000000001"],
    [1_500_000_000n, ETH, "Gwei", "1.5"],
    [1n, ETH, "Gwei", "0.000000001"],
    [2n ** 256n - 1n, ETH, "ETH", "115792089237316195423570985008687907853269984665640564039457.584007913129639935"],
    [10n ** 30n, SOL, undefined, "1000000000000000000000"],
    [42n, BASE_ONLY, undefined, "42"],
    [1_234_500n, USDC, undefined, "1.2345"],
    [1n, SOL, "sol", "0.000000001"],
  ];
  it.each(cases)("%s in %s unit %s -> %s", (amount, currency, unit, expected) => {
    const text = formatUnits(amount, currency, unit);
    expect(text).toBe(expected);
    expect(text).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
  });

  it("refuses negative amounts and non-bigint amounts", () => {
    expect(() => formatUnits(-1n, SOL)).toThrow(AmountError);
    expect(() => formatUnits(-1n, SOL)).toThrow("amount: must not be negative, got -1n");
    expect(() => formatUnits(1.5 as unknown as bigint, SOL)).toThrow(TypeError);
    expect(() => formatUnits("15" as unknown as bigint, SOL)).toThrow(/must be a bigint of base units, got string "15"/);
  });

  it("refuses unknown units, listing the known codes", () => {
    expect(() => formatUnits(1n, ETH, "gwei2")).toThrow('unit: unit "gwei2" is not a unit of ETH; known units: wei, ETH, Gwei');
  });
});

describe("formatDecimal", () => {
  it("formats in a bare magnitude", () => {
    expect(formatDecimal(125n, 2)).toBe("1.25");
    expect(formatDecimal(120n, 2)).toBe("1.2");
    expect(formatDecimal(5n, 3)).toBe("0.005");
    expect(formatDecimal(7n, 0)).toBe("7");
    expect(formatDecimal(5n * 10n ** 76n, 77)).toBe("0.5");
    expect(() => formatDecimal(1n, 78)).toThrow(RangeError);
  });
});

describe("formatAmount", () => {
  it("gives base units and the display unit", () => {
    expect(formatAmount(1_500_000_000n, SOL)).toEqual({ base_units: "1500000000", display: "1.5", unit: "SOL" });
    expect(formatAmount(1n, ETH)).toEqual({ base_units: "1", display: "0.000000000000000001", unit: "ETH" });
    expect(formatAmount(0n, DOT)).toEqual({ base_units: "0", display: "0", unit: "DOT" });
    expect(formatAmount(42n, BASE_ONLY)).toEqual({ base_units: "42", display: "42", unit: "unit" });
    expect(formatAmount(2n ** 200n, USDC).base_units).toBe((2n ** 200n).toString());
  });
  it("refuses negative amounts", () => {
    expect(() => formatAmount(-5n, SOL)).toThrow(AmountError);
  });
});
