import { describe, expect, it } from "vitest";
import { formatUnitsRounded } from "../../src/units/format-units.js";
import { SOL } from "../currency-fixtures.js";

describe("an amount rounded for a label, exactly on bigint", () => {
  it.each([
    [20_028_777_631n, "20.03"],
    [1_500_000_000n, "1.5"],
    [10_014_387_173n, "10.01"],
    [9_995_000_000n, "10"],
    [4_999_999n, "0.004999999"],
    [1_000n, "0.000001"],
    [0n, "0"],
  ])("%i lamport reads %s SOL", (amount, text) => {
    expect(formatUnitsRounded(amount, SOL, 2)).toBe(text);
  });

  it("gives the exact amount for decimals the display unit does not have", () => {
    expect(formatUnitsRounded(1_234_567_891n, SOL, 9)).toBe("1.234567891");
  });
});
