import type { Currency } from "../schemas/currency.js";
import { finding, type Finding } from "../schemas/finding.js";
import type { LimitSet } from "./limit-scope.js";
import { describePolicyAmount, limitInBaseUnits } from "./policy-limit.js";
import { localText } from "../l10n/translate.js";

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
        localText(
          "this write would bring the last 24 hours to {0}, above {1} daily maximum of {2}",
          describePolicyAmount(total, currency),
          set.owner,
          describePolicyAmount(max, currency),
        ),
        facts,
      )
    : finding(
        "info",
        `${set.code}MAX_PER_DAY_OK`,
        localText("the last 24 hours stay within {0} daily maximum of {1}", set.owner, describePolicyAmount(max, currency)),
        facts,
      );
}
