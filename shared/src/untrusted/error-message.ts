import { sanitizeUntrustedText } from "./untrusted-text.js";

/**
 * The message of anything thrown: the one way error text is made. Shared's errors already name the
 * field and the rule; a cancelled call says so. Given a length, the text is sanitised and cut like
 * workspace text (it may quote what the service answered), for where it is shown as it is.
 */
export function errorMessage(error: unknown, maxLength?: number): string {
  const message = error instanceof Error ? (error.name === "AbortError" ? "the call was cancelled before it completed" : error.message) : String(error);
  return maxLength === undefined ? message : sanitizeUntrustedText(message, maxLength);
}
