import { localText, renderText, type LocalText, type TranslatableError } from "../l10n/translate.js";

/** Why an amount, or its unit, was refused. Stable codes for callers to branch on. */
export const AMOUNT_RULES = [
  "not_a_string",
  "too_long",
  "empty",
  "whitespace",
  "negative",
  "sign",
  "not_a_number",
  "exponent",
  "separator",
  "multiple_points",
  "leading_point",
  "trailing_point",
  "invalid_character",
  "too_many_decimals",
  "fractional_base_units",
  "unknown_unit",
  "ambiguous_unit",
  "missing_unit",
  "missing_amount",
  "ambiguous_input",
] as const;
export type AmountRule = (typeof AMOUNT_RULES)[number];

/** Bad amount input. The message starts with the field name and states the rule broken; `text` is the same, to translate. */
export class AmountError extends Error implements TranslatableError {
  override readonly name = "AmountError";
  readonly field: string;
  readonly rule: AmountRule;
  readonly text: LocalText;

  constructor(field: string, rule: AmountRule, detail: LocalText) {
    const text = localText("{0}: {1}", field, detail);
    super(renderText(text));
    this.field = field;
    this.rule = rule;
    this.text = text;
  }
}

const MAX_QUOTED = 40;

/** The input as it is shown in messages: quoted, escaped, cut after 40 characters. */
export function quoteInput(value: unknown): string {
  if (typeof value === "string") {
    return JSON.stringify(value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}...` : value);
  }
  if (typeof value === "bigint") return `${value}n`;
  if (value === undefined) return "undefined";
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return typeof value;
}
