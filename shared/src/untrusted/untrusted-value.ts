import { setOwnField } from "../json/own-field.js";
import { sanitizeUntrustedText } from "./untrusted-text.js";

/**
 * The value with every string in it sanitised whole (hidden characters shown, nothing cut), at
 * any depth; numbers, bigints, booleans and null are left as they are, so that a request body
 * still serialises to the same JSON but for its hidden characters. Every answer passes here: an
 * array or plain object with nothing to change is returned as it is, not copied; another object
 * becomes a plain object of its own fields.
 */
export function sanitizeUntrustedValue(value: unknown): unknown {
  if (typeof value === "string") return sanitizeUntrustedText(value, Number.POSITIVE_INFINITY);
  if (Array.isArray(value)) return sanitizedItems(value);
  if (value && typeof value === "object") return sanitizedFields(value as Record<string, unknown>);
  return value;
}

function sanitizedItems(items: unknown[]): unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index += 1) {
    const clean = sanitizeUntrustedValue(items[index]);
    if (Object.is(clean, items[index])) continue;
    copy ??= items.slice();
    copy[index] = clean;
  }
  return copy ?? items;
}

function sanitizedFields(record: Record<string, unknown>): Record<string, unknown> {
  const plain = Object.getPrototypeOf(record) === Object.prototype;
  const keys = Object.keys(record);
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const item = record[key];
    const clean = sanitizeUntrustedValue(item);
    if (copy === undefined && (!plain || !Object.is(clean, item))) {
      copy = {};
      for (const earlier of keys.slice(0, index)) setOwnField(copy, earlier, record[earlier]);
    }
    if (copy !== undefined) setOwnField(copy, key, clean);
  }
  return copy ?? (plain ? record : {});
}
