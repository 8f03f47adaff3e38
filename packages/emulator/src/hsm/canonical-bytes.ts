import { utf8ToBytes } from "@noble/hashes/utils.js";

function canonical(value: unknown): string {
  if (typeof value === "bigint") return JSON.stringify(value.toString());
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
}

/** The canonical encoding the HSM signs: JSON with sorted keys, bigints as decimal strings, UTF-8. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8ToBytes(canonical(value));
}
