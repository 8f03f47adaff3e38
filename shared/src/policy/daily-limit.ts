import type { Currency } from "../schemas/currency.js";
import { finding, type Finding } from "../rules/finding.js";
import type { Policy } from "./policy.js";
import { describePolicyAmount, limitInBaseUnits } from "./policy-limit.js";

/** The rolling window of max_per_day. */
export const DAILY_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The policy's max_per_day for a write of `amount` after `spentLast24h` in the currency:
 * POLICY_MAX_PER_DAY (block) | POLICY_MAX_PER_DAY_OK, or POLICY_LIMIT_INVALID; null when the
 * policy sets no daily maximum for the currency.
 */
export function checkDailyLimit(policy: Policy, currency: Currency, amount: bigint, spentLast24h: bigint): Finding | null {
  const limit = policy.limits[currency.name]?.max_per_day;
  if (!limit) return null;
  const max = limitInBaseUnits(limit, currency, `limits.${currency.name}.max_per_day`);
  if (typeof max !== "bigint") return max;
  const total = spentLast24h + amount;
  const facts = { amount, spent_last_24h: spentLast24h, max };
  return total > max
    ? finding(
        "block",
        "POLICY_MAX_PER_DAY",
        `this write would bring the last 24 hours to ${describePolicyAmount(total, currency)}, above the local policy's daily maximum of ${describePolicyAmount(max, currency)}`,
        facts,
      )
    : finding("info", "POLICY_MAX_PER_DAY_OK", `the last 24 hours stay within the local policy's daily maximum of ${describePolicyAmount(max, currency)}`, facts);
}
