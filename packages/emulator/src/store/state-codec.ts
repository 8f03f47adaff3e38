// The state's own JSON form for the journal and snapshots. Rows hold bigints; they are
// written as {"$bigint":"<digits>"} so that reading them back can never confuse an amount
// with a number or a string.

const BIGINT_TAG = "$bigint";

export function encodeState(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? { [BIGINT_TAG]: item.toString() } : item));
}

export function decodeState(text: string): unknown {
  return JSON.parse(text, (_key, item: unknown) => {
    if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const keys = Object.keys(item);
      const tagged = (item as Record<string, unknown>)[BIGINT_TAG];
      if (keys.length === 1 && typeof tagged === "string" && /^-?[0-9]+$/.test(tagged)) return BigInt(tagged);
    }
    return item;
  });
}
