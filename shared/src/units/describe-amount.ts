import type { Currency } from "../schemas/currency.js";
import { displayUnit, type CurrencyLike } from "./currency-units.js";
import { formatUnits } from "./format-units.js";

/** An amount in both units, for messages: "1.5 SOL (1500000000 lamport)". */
export function describeAmount(amount: bigint, currency: Currency): string {
  const base = currency.units.find((unit) => unit.magnitude === 0)?.code ?? "base units";
  return `${formatUnits(amount, currency)} ${displayUnit(currency).code} (${amount} ${base})`;
}

/** An amount in the display unit alone, for overviews whose structured answer carries both: "1.5 SOL". */
export function displayAmountText(amount: bigint, currency: CurrencyLike): string {
  return `${formatUnits(amount, currency)} ${displayUnit(currency).code}`;
}
