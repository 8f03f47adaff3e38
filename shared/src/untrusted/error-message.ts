import { english, translatedError, type Translate } from "../l10n/translate.js";
import { sanitizeUntrustedText } from "./untrusted-text.js";

/**
 * The message of anything thrown: the one way error text is made. Shared's errors already name the
 * field and the rule; a cancelled call says so. Given a length, the text is sanitised and cut like
 * workspace text (it may quote what the service answered), for where it is shown as it is. An
 * error that carries its text (an AmountError) is told through `t`.
 */
export function errorMessage(error: unknown, maxLength?: number, t: Translate = english): string {
  const message =
    translatedError(error, t) ??
    (error instanceof Error ? (error.name === "AbortError" ? "the call was cancelled before it completed" : error.message) : String(error));
  return maxLength === undefined ? message : sanitizeUntrustedText(message, maxLength);
}
