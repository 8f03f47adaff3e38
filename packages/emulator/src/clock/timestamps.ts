/** ISO 8601 with offset (UTC, "Z"), millisecond precision: created_on and most timestamps. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString();
}

/** ISO 8601 with the offset written out ("+00:00"), as the spec types the user record's created_on. */
export function isoWithNumericOffset(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
}

/** ISO 8601 without an offset, as Solana stakes' created_on is written in the spec. */
export function isoWithoutOffset(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1);
}

export const SECOND_MS = 1_000;
export const DAY_MS = 86_400_000;
