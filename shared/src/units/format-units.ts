import { localText } from "../l10n/translate.js";
import { AmountError, quoteInput } from "./amount-error.js";
import type { CurrencyLike } from "./currency-units.js";
import { assertMagnitude, displayUnit, findUnit } from "./currency-units.js";

/** An amount in both forms, for UIs that show base units next to the display unit. */
export interface FormattedAmount {
  /** Base units, digits only. */
  base_units: string;
  /** The amount in `unit`, canonical decimal text. */
  display: string;
  /** Code of the display unit. */
  unit: string;
}

/** Base units as canonical decimal text in a unit of the given magnitude: "1.5", "0.000000001", "0". */
export function formatDecimal(amount: bigint, magnitude: number): string {
  if (typeof amount !== "bigint") {
    throw new TypeError(`amount must be a bigint of base units, got ${typeof amount} ${quoteInput(amount)}`);
  }
  if (amount < 0n) throw new AmountError("amount", "negative", localText("must not be negative, got {0}", quoteInput(amount)));
  assertMagnitude(magnitude);
  const digits = amount.toString();
  if (magnitude === 0) return digits;
  const padded = digits.padStart(magnitude + 1, "0");
  const whole = padded.slice(0, -magnitude);
  const fraction = padded.slice(-magnitude).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/**
 * Base units written in a unit of the currency, by default its display unit. The text has no
 * exponent, no grouping, no trailing zeros after the point and no trailing point; zero is "0".
 */
export function formatUnits(amount: bigint, currency: CurrencyLike, unitCode?: string): string {
  const unit = unitCode === undefined ? displayUnit(currency) : findUnit(currency, unitCode, "unit");
  return formatDecimal(amount, unit.magnitude);
}

/** Base units in both the base form and the display unit. */
export function formatAmount(amount: bigint, currency: CurrencyLike): FormattedAmount {
  const unit = displayUnit(currency);
  return { base_units: formatDecimal(amount, 0), display: formatDecimal(amount, unit.magnitude), unit: unit.code };
}

/**
 * A balance that may fall below zero in both forms, "-" before each (the after-balance of a write
 * that exceeds what it draws on, which its check blocks): amounts themselves are never negative.
 */
export function formatSignedAmount(amount: bigint, currency: CurrencyLike): FormattedAmount {
  if (amount >= 0n) return formatAmount(amount, currency);
  const magnitude = formatAmount(-amount, currency);
  return { ...magnitude, base_units: `-${magnitude.base_units}`, display: `-${magnitude.display}` };
}

/**
 * Base units in the display unit rounded to the nearest `decimals` (half away from zero), for a
 * label whose exact amount is shown beside it: "20.03" for 20.028777631. An amount that would
 * round to 0 is written exactly, so a small amount never reads as nothing.
 */
export function formatUnitsRounded(amount: bigint, currency: CurrencyLike, decimals: number): string {
  const magnitude = displayUnit(currency).magnitude;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals >= magnitude) return formatDecimal(amount, magnitude);
  const step = 10n ** BigInt(magnitude - decimals);
  const rounded = ((amount + step / 2n) / step) * step;
  return rounded === 0n && amount > 0n ? formatDecimal(amount, magnitude) : formatDecimal(rounded, magnitude);
}
