import { sanitizeUntrustedText } from "@custody/shared";

/**
 * The message a tool answers for a failure; shared's errors already name the field and the rule,
 * and delimit the workspace's text they quote (account names, the service's error bodies). The
 * message is sanitised like any workspace text: it may quote what the service answered.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "AbortError") return "the call was cancelled before it completed";
    return sanitizeUntrustedText(error.message, Number.POSITIVE_INFINITY);
  }
  return sanitizeUntrustedText(String(error), Number.POSITIVE_INFINITY);
}
