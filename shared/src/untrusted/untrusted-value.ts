import { sanitizeUntrustedText } from "./untrusted-text.js";

/**
 * The value with every string in it sanitised whole (hidden characters shown, nothing cut), at
 * any depth; numbers, bigints, booleans and null are left as they are, so that a request body
 * still serialises to the same JSON but for its hidden characters.
 */
export function sanitizeUntrustedValue(value: unknown): unknown {
  if (typeof value === "string") return sanitizeUntrustedText(value, Number.POSITIVE_INFINITY);
  if (Array.isArray(value)) return value.map(sanitizeUntrustedValue);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sanitizeUntrustedValue(item)]));
  return value;
}
