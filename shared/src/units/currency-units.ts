import { CurrencyUnit } from "../schemas/currency.js";
import { INPUT_LIMITS, lengthRule } from "../schemas/input-limits.js";
import { AmountError, quoteInput } from "./amount-error.js";

/** Anything with units: a Currency, a Token. The name, when given, appears in messages. */
export interface CurrencyLike {
  readonly units: readonly CurrencyUnit[];
  readonly name?: string;
}

function currencyName(currency: CurrencyLike): string {
  return currency.name ? currency.name : "the currency";
}

function knownCodes(currency: CurrencyLike): string {
  return currency.units.map((unit) => unit.code).join(", ");
}

/**
 * The unit with this code. An exact match wins; otherwise a case-insensitive match is taken
 * only when exactly one unit matches, and two or more (say "mX" and "MX") are refused.
 */
export function findUnit(currency: CurrencyLike, code: string, field = "amount"): CurrencyUnit {
  if (typeof code !== "string" || code.length === 0) {
    throw new AmountError(field, "missing_unit", `must name a unit of ${currencyName(currency)} (one of: ${knownCodes(currency)})`);
  }
  if (code.length > INPUT_LIMITS.unit) throw new AmountError(field, "too_long", lengthRule(INPUT_LIMITS.unit, code.length));
  const exact = currency.units.find((unit) => unit.code === code);
  if (exact) return exact;
  const lower = code.toLowerCase();
  const folded = currency.units.filter((unit) => unit.code.toLowerCase() === lower);
  const [only, second] = folded;
  if (only && !second) return only;
  if (only) {
    throw new AmountError(
      field,
      "ambiguous_unit",
      `unit ${quoteInput(code)} matches ${folded.map((unit) => unit.code).join(" and ")} of ` +
        `${currencyName(currency)} when case is ignored; give the exact code`,
    );
  }
  throw new AmountError(field, "unknown_unit", `unit ${quoteInput(code)} is not a unit of ${currencyName(currency)}; known units: ${knownCodes(currency)}`);
}

/** The unit amounts are shown in: index 1 of `units`, or index 0 when there is only one. */
export function displayUnit(currency: CurrencyLike): CurrencyUnit {
  const unit = currency.units[1] ?? currency.units[0];
  if (!unit) throw new RangeError(`${currencyName(currency)} lists no units`);
  return unit;
}

/** The unit of magnitude 0, in which the service counts amounts. */
export function baseUnit(currency: CurrencyLike): CurrencyUnit {
  const unit = currency.units.find((candidate) => candidate.magnitude === 0);
  if (!unit) throw new RangeError(`${currencyName(currency)} has no base unit (magnitude 0)`);
  return unit;
}

/** Throws a RangeError unless the magnitude is one the Currency schema allows (a whole number, 0 to 77). */
export function assertMagnitude(magnitude: number): void {
  if (!CurrencyUnit.shape.magnitude.safeParse(magnitude).success) {
    throw new RangeError(`a unit magnitude must be a whole number from 0 to 77, got ${String(magnitude)}`);
  }
}
