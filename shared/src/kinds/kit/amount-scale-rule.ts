import type { Currency } from "../../schemas/currency.js";
import { baseUnit, displayUnit } from "../../units/currency-units.js";
import { formatUnits } from "../../units/format-units.js";
import { describeAmount } from "../../units/describe-amount.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

/** More than this many times the account's balance is taken for a unit mistake, not a plan. */
export const ABSURD_MULTIPLE = 1_000_000n;

export interface AmountScaleInput {
  amount: bigint;
  /** The account's balance (what it holds). */
  balance: bigint;
  /** The network fee the service estimates, when known. */
  fee: bigint | null;
  currency: Currency;
}

/**
 * An amount whose unit makes it absurd for the account: more than a million times its balance
 * (a display amount typed with the display unit's digits as base units, "1500000000 SOL"), or
 * below one network fee (a display amount given in the base unit, "1.5" meant as SOL given as
 * "1500 lamport"). Warns, naming what the amount would be in the other unit; says nothing otherwise.
 */
export function checkAmountScale({ amount, balance, fee, currency }: AmountScaleInput): Finding[] {
  const shift = 10n ** BigInt(displayUnit(currency).magnitude);
  const display = displayUnit(currency).code;
  if (balance > 0n && amount > balance * ABSURD_MULTIPLE) {
    const meant =
      amount % shift === 0n
        ? `; if ${formatUnits(amount, currency)} was meant in ${baseUnit(currency).code}, it is ${describeAmount(amount / shift, currency)}`
        : "";
    return [
      finding(
        "warn",
        "AMOUNT_UNIT_SUSPECT",
        localText(
          "amount {0} is more than a million times the account's balance {1}: check its unit{2}",
          describeAmount(amount, currency),
          describeAmount(balance, currency),
          meant,
        ),
        {
          amount,
          balance,
        },
      ),
    ];
  }
  if (fee !== null && amount > 0n && amount < fee) {
    return [
      finding(
        "warn",
        "AMOUNT_UNIT_SUSPECT",
        localText(
          "amount {0} is below one network fee of {1}: check its unit; if {2} was meant in {3}, it is {4}",
          describeAmount(amount, currency),
          describeAmount(fee, currency),
          String(amount),
          display,
          describeAmount(amount * shift, currency),
        ),
        { amount, fee },
      ),
    ];
  }
  return [];
}
