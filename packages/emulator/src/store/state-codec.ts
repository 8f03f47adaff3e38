// The state's own JSON form for the journal and snapshots. Rows hold bigints; they are
// written as {"$bigint":"<digits>"} so that reading them back can never confuse an amount
// with a number or a string.

const BIGINT_TAG = "$bigint";
const DIGITS = /^-?[0-9]+$/;

export function encodeState(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? { [BIGINT_TAG]: item.toString() } : item));
}

/** Parses, then turns the tags back into bigints in one walk (several times faster than a JSON.parse reviver). */
export function decodeState(text: string): unknown {
  return revive(JSON.parse(text) as unknown);
}

function revive(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (item !== null && typeof item === "object") value[index] = revive(item);
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const tagged = record[BIGINT_TAG];
  if (keys.length === 1 && typeof tagged === "string" && DIGITS.test(tagged)) return BigInt(tagged);
  for (const key of keys) {
    const item = record[key];
    if (item === null || typeof item !== "object") continue;
    const revived = revive(item);
    // defineProperty, not assignment: a key named "__proto__" must stay a plain property.
    if (revived !== item) Object.defineProperty(record, key, { value: revived, writable: true, enumerable: true, configurable: true });
  }
  return record;
}
