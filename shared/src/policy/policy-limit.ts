import type { Currency } from "../schemas/currency.js";
import { finding, type Finding } from "../schemas/finding.js";
import { toBaseUnits, type AmountInUnit } from "../units/amount-in-unit.js";
import { formatUnits } from "../units/format-units.js";
import { displayUnit } from "../units/currency-units.js";
import { errorMessage } from "../untrusted/error-message.js";
import { localText } from "../l10n/translate.js";

/** "1.5 SOL (1500000000 base units)", for policy messages. */
export function describePolicyAmount(amount: bigint, currency: Currency): string {
  return `${formatUnits(amount, currency)} ${displayUnit(currency).code} (${amount} base units)`;
}

/** A configured limit in base units, or a blocking finding when it cannot be read for this currency. */
export function limitInBaseUnits(limit: AmountInUnit, currency: Currency, field: string): bigint | Finding {
  try {
    return toBaseUnits(limit, currency, field);
  } catch (error) {
    return finding("block", "POLICY_LIMIT_INVALID", localText("the local policy's {0} cannot be applied: {1}", field, errorMessage(error)), { field });
  }
}
