import type { Currency } from "../schemas/currency.js";
import { finding, type Finding } from "../schemas/finding.js";
import type { LimitSet } from "./limit-scope.js";
import { describePolicyAmount, limitInBaseUnits } from "./policy-limit.js";

/** The rolling window of max_per_day. */
export const DAILY_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A limit set's max_per_day for a write of `amount` after `spentLast24h` in the currency by the
 * set's scope: <code>MAX_PER_DAY (block) | <code>MAX_PER_DAY_OK, or POLICY_LIMIT_INVALID; null when
 * the set has no daily maximum for the currency.
 */
export function checkDailyLimit(set: LimitSet, currency: Currency, amount: bigint, spentLast24h: bigint): Finding | null {
  const limit = set.limits[currency.name]?.max_per_day;
  if (!limit) return null;
  const max = limitInBaseUnits(limit, currency, `${set.field}.${currency.name}.max_per_day`);
  if (typeof max !== "bigint") return max;
  const total = spentLast24h + amount;
  const facts = { amount, spent_last_24h: spentLast24h, max, scope: set.field };
  return total > max
    ? finding(
        "block",
        `${set.code}MAX_PER_DAY`,
        `this write would bring the last 24 hours to ${describePolicyAmount(total, currency)}, above ` +
          `${set.owner} daily maximum of ${describePolicyAmount(max, currency)}`,
        facts,
      )
    : finding("info", `${set.code}MAX_PER_DAY_OK`, `the last 24 hours stay within ${set.owner} daily maximum of ${describePolicyAmount(max, currency)}`, facts);
}
