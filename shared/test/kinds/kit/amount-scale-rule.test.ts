import { describe, expect, it } from "vitest";
import { checkAmountScale } from "../../../src/kinds/kit/amount-scale-rule.js";
import { formatSignedAmount } from "../../../src/units/format-units.js";
import { SOL } from "../../currency-fixtures.js";

const BALANCE = 167_499_975_000n;

describe("an amount whose unit makes it absurd for the account", () => {
  it("warns above a million times the balance, saying what the number is in base units", () => {
    const [warning] = checkAmountScale({ amount: 1_500_000_000n * 10n ** 9n, balance: BALANCE, fee: 5_000n, currency: SOL });
    expect(warning).toMatchObject({ code: "AMOUNT_UNIT_SUSPECT", severity: "warn" });
    expect(warning?.message).toContain("more than a million times the account's balance 167.499975 SOL");
    expect(warning?.message).toContain("if 1500000000 was meant in lamport, it is 1.5 SOL (1500000000 lamport)");
  });

  it("warns below one network fee, saying what the number is in the display unit", () => {
    const [warning] = checkAmountScale({ amount: 1_500n, balance: BALANCE, fee: 5_000n, currency: SOL });
    expect(warning?.message).toBe(
      "amount 0.0000015 SOL (1500 lamport) is below one network fee of 0.000005 SOL (5000 lamport): check " +
        "its unit; if 1500 was meant in SOL, it is 1500 SOL (1500000000000 lamport)",
    );
  });

  it("says nothing of a plausible amount, at a million times the balance exactly, or with the fee unknown", () => {
    expect(checkAmountScale({ amount: 1_500_000_000n, balance: BALANCE, fee: 5_000n, currency: SOL })).toEqual([]);
    expect(checkAmountScale({ amount: BALANCE * 1_000_000n, balance: BALANCE, fee: 5_000n, currency: SOL })).toEqual([]);
    expect(checkAmountScale({ amount: 1_500n, balance: BALANCE, fee: null, currency: SOL })).toEqual([]);
    expect(checkAmountScale({ amount: 10n ** 30n, balance: 0n, fee: null, currency: SOL })).toEqual([]);
  });

  it("shows an after-balance below zero with its sign in both units", () => {
    expect(formatSignedAmount(-1_500_000_000n, SOL)).toEqual({ base_units: "-1500000000", display: "-1.5", unit: "SOL" });
    expect(formatSignedAmount(0n, SOL)).toEqual({ base_units: "0", display: "0", unit: "SOL" });
  });
});
