import { randomBytes } from "node:crypto";

/**
 * JSON indented for reading, with bigints written digit for digit as JSON integers. The
 * placeholder carries a fresh nonce, so no string in the data can pass for a number.
 */
export function prettyJsonExact(value: unknown): string {
  const nonce = randomBytes(8).toString("hex");
  const marker = new RegExp(`"@bigint-${nonce}:([0-9-]+)"`, "g");
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? `@bigint-${nonce}:${item.toString()}` : item), 2);
  return text.replace(marker, "$1");
}
