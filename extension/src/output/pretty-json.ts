import { randomBytes } from "node:crypto";
import { sanitizeUntrustedText } from "@custody/shared";

/**
 * JSON indented for reading, with bigints written digit for digit as JSON integers. The
 * placeholder carries a fresh nonce, so no string in the data can pass for a number. Workspace
 * text in it is shown as the sanitiser shows it everywhere else (a hidden character as `\u{202E}`,
 * JSON.stringify leaves bidi, zero-width and tag characters raw): a document to read, so a
 * string holding one is no longer a valid JSON escape there, and says so by looking different.
 */
export function prettyJsonExact(value: unknown): string {
  const nonce = randomBytes(8).toString("hex");
  const marker = new RegExp(`"@bigint-${nonce}:([0-9-]+)"`, "g");
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? `@bigint-${nonce}:${item.toString()}` : item), 2);
  return sanitizeUntrustedText(text.replace(marker, "$1"), Number.POSITIVE_INFINITY);
}
