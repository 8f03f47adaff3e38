import { epochOrNone, formatAmount, sanitizeUntrustedText, setOwnField, type CurrencyLike } from "@custody/shared";

/**
 * A value read from the workspace (or a request body about to be sent), made safe to hand to a
 * model: every base-unit amount (a bigint in shared's domain types) becomes
 * { base_units, display, unit } in the currency, and every string has its hidden characters shown
 * (sanitizeUntrustedText, nothing cut). Without a currency an amount stays a string of base units. The Solana
 * stake epochs, bigints that are not amounts, become numbers, or null when they name none.
 */
export function workspaceView(value: unknown, currency?: CurrencyLike): unknown {
  if (typeof value === "bigint") return currency ? formatAmount(value, currency) : value.toString();
  if (typeof value === "string") return sanitizeUntrustedText(value, Number.POSITIVE_INFINITY);
  if (Array.isArray(value)) return value.map((item) => workspaceView(item, currency));
  if (value && typeof value === "object") {
    // Key by key rather than through Object.entries and Object.fromEntries: every read answer is built here.
    const view: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      setOwnField(view, key, EPOCH_FIELDS.has(key) && (typeof item === "bigint" || item === null) ? epochView(item) : workspaceView(item, currency));
    }
    return view;
  }
  return value;
}

/** The Solana stake fields that are epochs (bigints in shared's types), not amounts. */
const EPOCH_FIELDS = new Set(["activation_epoch", "deactivation_epoch"]);

/**
 * An epoch for a model: the number, or null when it names none (Solana's u64::MAX on a stake never
 * deactivated, or null in older data), so it is never read as an epoch or an amount.
 */
function epochView(epoch: bigint | null): number | string | null {
  const value = epochOrNone(epoch);
  if (value === null) return null;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

/** A workspace record (an object) as workspaceView makes it, for an answer's field typed as an object. */
export function recordView(record: object, currency?: CurrencyLike): Record<string, unknown> {
  return workspaceView(record, currency) as Record<string, unknown>;
}
