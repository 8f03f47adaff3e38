import { formatAmount, sanitizeUntrustedText, type CurrencyLike } from "@custody/shared";

/** Long enough for any field the service returns (contract data included): only hidden characters go. */
const NO_TRUNCATION = 1_000_000;

/**
 * A value read from the workspace (or a request body about to be sent), made safe to hand to a
 * model: every base-unit amount (a bigint in shared's domain types) becomes
 * { base_units, display, unit } in the currency, and every string loses its control, bidi and
 * zero-width characters. Without a currency an amount stays a string of base units.
 */
export function workspaceView(value: unknown, currency?: CurrencyLike): unknown {
  if (typeof value === "bigint") return currency ? formatAmount(value, currency) : value.toString();
  if (typeof value === "string") return sanitizeUntrustedText(value, NO_TRUNCATION);
  if (Array.isArray(value)) return value.map((item) => workspaceView(item, currency));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, workspaceView(item, currency)]));
  }
  return value;
}
