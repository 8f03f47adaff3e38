import { english, errorText, localText, renderText, type LocalText, type Translate } from "../l10n/translate.js";
import { sanitizeUntrustedText } from "./untrusted-text.js";

/**
 * The text of anything thrown, for a surface that tells it in its reader's language: its own when
 * it carries one (an AmountError, the service's answer), a cancelled call's, else its message as
 * it is (a value: not translated).
 */
export function errorLocalText(error: unknown): LocalText {
  const text = errorText(error);
  if (text !== undefined) return text;
  if (error instanceof Error && error.name === "AbortError") return localText("the call was cancelled before it completed");
  return localText("{0}", error instanceof Error ? error.message : String(error));
}

/**
 * The message of anything thrown: the one way error text is made. Shared's errors already name the
 * field and the rule; a cancelled call says so. Given a length, the text is sanitised and cut like
 * workspace text (it may quote what the service answered), for where it is shown as it is. An
 * error that carries its text (an AmountError) is told through `t`.
 */
export function errorMessage(error: unknown, maxLength?: number, t: Translate = english): string {
  const message = renderText(errorLocalText(error), t);
  return maxLength === undefined ? message : sanitizeUntrustedText(message, maxLength);
}
