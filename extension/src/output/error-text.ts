import { sanitizeUntrustedText } from "@custody/shared";

/**
 * The message of anything thrown, for a notification or the output channel. Error messages
 * can quote what the service answered, so they are sanitised like any workspace text.
 */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return sanitizeUntrustedText(message, 1000);
}
