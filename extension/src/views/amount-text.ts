import { baseUnit, displayAmountText, type CurrencyLike } from "@custody/shared";

/** "1.5 SOL": base units in the currency's display unit. */
export const displayAmount = displayAmountText;

/** "1500000000 lamport". */
export function baseAmount(amount: bigint, currency: CurrencyLike): string {
  return `${amount} ${baseUnit(currency).code}`;
}

/** "1.5 SOL (1500000000 lamport)": both forms, as every confirmation shows them. */
export function bothAmounts(amount: bigint, currency: CurrencyLike): string {
  return `${displayAmount(amount, currency)} (${baseAmount(amount, currency)})`;
}
