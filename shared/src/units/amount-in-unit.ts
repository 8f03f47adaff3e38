import { z } from "zod";
import { localText } from "../l10n/translate.js";
import { AmountError, quoteInput } from "./amount-error.js";
import type { CurrencyLike } from "./currency-units.js";
import { findUnit } from "./currency-units.js";
import { parseBaseUnits, parseDecimal } from "./parse-units.js";

/**
 * An amount as people and AIs give it: base units (digits only), or a decimal with the code of
 * the unit it is written in. The unit is required: a bare "1500000000" could mean base units or
 * display units, a difference of 10^magnitude.
 */
export const AmountInUnit = z.union([
  z.strictObject({
    base_units: z.string().describe('Whole number of base units, digits only, e.g. "1500000000"'),
  }),
  z.strictObject({
    amount: z.string().describe('Decimal amount in `unit`, e.g. "1.5"'),
    unit: z.string().describe('Code of the unit `amount` is written in, e.g. "SOL"'),
  }),
]);
export type AmountInUnit = z.infer<typeof AmountInUnit>;

function has(input: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(input, key) && (input as Record<string, unknown>)[key] !== undefined;
}

/**
 * Base units from either form of AmountInUnit. Checks the input itself (it may come straight
 * from JSON) and refuses with an AmountError naming `field` and the rule.
 */
export function toBaseUnits(input: AmountInUnit, currency: CurrencyLike, field = "amount"): bigint {
  if (typeof input !== "object" || input === null) {
    throw new AmountError(field, "missing_amount", localText("must be { base_units } or { amount, unit }, got {0}", quoteInput(input)));
  }
  const hasBase = has(input, "base_units");
  const hasAmount = has(input, "amount");
  if (hasBase && hasAmount) {
    throw new AmountError(field, "ambiguous_input", localText("give either base_units or amount with unit, not both"));
  }
  if (hasBase && has(input, "unit")) {
    throw new AmountError(field, "ambiguous_input", localText("base_units takes no unit; to give a unit, send { amount, unit } instead"));
  }
  if (hasBase) return parseBaseUnits((input as { base_units: string }).base_units, field);
  if (!hasAmount) {
    throw new AmountError(field, "missing_amount", localText("must give base_units, or amount with unit"));
  }
  const { amount, unit } = input as { amount: string; unit?: unknown };
  if (unit === undefined || unit === null || unit === "") {
    throw new AmountError(
      field,
      "missing_unit",
      localText(
        "amount {0} needs the code of its unit (one of: {1}), or give base_units instead",
        quoteInput(amount),
        currency.units.map((u) => u.code).join(", "),
      ),
    );
  }
  if (typeof unit !== "string") {
    throw new AmountError(field, "missing_unit", localText("unit must be a unit code written as a string, got {0}", quoteInput(unit)));
  }
  const found = findUnit(currency, unit, field);
  return parseDecimal(amount, found.magnitude, field, found.code);
}
