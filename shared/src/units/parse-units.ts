import { INPUT_LIMITS, lengthRuleText } from "../schemas/input-limits.js";
import { localText, type LocalText } from "../l10n/translate.js";
import type { AmountRule } from "./amount-error.js";
import { AmountError, quoteInput } from "./amount-error.js";
import type { CurrencyLike } from "./currency-units.js";
import { assertMagnitude, displayUnit, findUnit } from "./currency-units.js";

// The only accepted form: digits, then optionally one "." and at least one digit.
// Leading zeros are accepted ("007", "00.5"): they cannot change the value.
const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;
const EXPONENT = /^[0-9.]+[eE][+-]?[0-9]+$/;
const NOT_A_NUMBER = /^(nan|inf|infinity)$/i;
const SEPARATOR = /[,_'\u2019]/;
const WHITESPACE = /\s/;
const ALLOWED = /[0-9.]/;

function describeCharacter(character: string): string {
  const point = character.codePointAt(0) ?? 0;
  const hex = `U+${point.toString(16).toUpperCase().padStart(4, "0")}`;
  return point >= 0x21 && point <= 0x7e ? `${JSON.stringify(character)} (${hex})` : hex;
}

function refuse(field: string, rule: AmountRule, text: unknown, detail: LocalText): never {
  throw new AmountError(field, rule, localText("{0}, got {1}", detail, quoteInput(text)));
}

/** Reports the first rule a text that is not a plain decimal breaks. */
function refuseMalformed(text: string, field: string, what: LocalText): never {
  const trimmed = text.trim();
  if (trimmed === "") refuse(field, "empty", text, localText("must be {0}, not empty or blank", what));
  if (trimmed.startsWith("-") || trimmed.startsWith("\u2212")) refuse(field, "negative", text, localText("must not be negative"));
  if (trimmed.startsWith("+")) refuse(field, "sign", text, localText("must be {0} without a sign", what));
  if (WHITESPACE.test(text)) {
    refuse(field, "whitespace", text, localText("must not contain spaces (no padding, no digit grouping); write {0}", what));
  }
  if (NOT_A_NUMBER.test(trimmed)) refuse(field, "not_a_number", text, localText("must be {0}, not NaN or Infinity", what));
  if (EXPONENT.test(trimmed)) refuse(field, "exponent", text, localText("must be written out in full digits, not with an exponent"));
  if (SEPARATOR.test(text)) {
    refuse(field, "separator", text, localText('must not contain thousands separators or a decimal comma; use "." as the only separator'));
  }
  if (text.indexOf(".") !== text.lastIndexOf(".")) refuse(field, "multiple_points", text, localText("must contain at most one decimal point"));
  for (const character of text) {
    if (!ALLOWED.test(character)) {
      refuse(field, "invalid_character", text, localText('must contain only digits 0-9 and one "."; found {0}', describeCharacter(character)));
    }
  }
  if (text.startsWith(".")) refuse(field, "leading_point", text, localText('must have a digit before the decimal point (write "0.5", not ".5")'));
  refuse(field, "trailing_point", text, localText('must have a digit after the decimal point (write "5", not "5.")'));
}

/** A string no longer than any amount can be, checked before anything reads it. */
function requireString(text: unknown, field: string, what: LocalText): string {
  if (typeof text === "string") {
    if (text.length > INPUT_LIMITS.amount) throw new AmountError(field, "too_long", lengthRuleText(INPUT_LIMITS.amount, text.length));
    return text;
  }
  const detail =
    typeof text === "number"
      ? localText("must be {0} written as a string (a number may already have lost digits; send the amount as a string)", what)
      : localText("must be {0} written as a string", what);
  return refuse(field, "not_a_string", text, detail);
}

/**
 * Reads a plain decimal ("1.5", "0.000000001", "42") counted in a unit of the given magnitude
 * and returns it in base units, exactly. Refuses anything else with an AmountError naming
 * `field` and the rule. `unitCode` only names the unit in messages.
 */
export function parseDecimal(text: string, magnitude: number, field = "amount", unitCode?: string): bigint {
  assertMagnitude(magnitude);
  const what = localText("a decimal number such as 1.5");
  const checked = requireString(text, field, what);
  const match = DECIMAL.exec(checked);
  if (!match) refuseMalformed(checked, field, what);
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (fraction.length > magnitude) {
    const unit = unitCode === undefined ? localText("this unit") : localText("unit {0}", unitCode);
    const limit =
      magnitude === 0
        ? localText("{0} takes whole numbers only", unit)
        : localText("{0} allows at most {1} decimal places, this has {2}", unit, magnitude, fraction.length);
    refuse(field, "too_many_decimals", checked, limit);
  }
  return BigInt(whole + fraction.padEnd(magnitude, "0"));
}

/** Reads digits-only base units ("1500000000"); a decimal point or anything else is refused. */
export function parseBaseUnits(text: string, field = "amount"): bigint {
  const what = localText("a whole number of base units (digits only)");
  const checked = requireString(text, field, what);
  const match = DECIMAL.exec(checked);
  if (!match) refuseMalformed(checked, field, what);
  if (match[2] !== undefined) {
    refuse(field, "fractional_base_units", checked, localText("base units are whole numbers; a decimal point is not allowed"));
  }
  return BigInt(checked);
}

/**
 * Reads a decimal amount written in a unit of the currency (by default its display unit) and
 * returns base units: parseUnits("1.5", sol, "SOL") is 1500000000n when SOL has magnitude 9.
 */
export function parseUnits(text: string, currency: CurrencyLike, unitCode?: string, field = "amount"): bigint {
  const unit = unitCode === undefined ? displayUnit(currency) : findUnit(currency, unitCode, field);
  return parseDecimal(text, unit.magnitude, field, unit.code);
}
