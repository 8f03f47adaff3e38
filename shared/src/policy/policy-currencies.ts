import { finding, type Finding } from "../schemas/finding.js";
import type { Currency } from "../schemas/currency.js";
import type { Policy } from "./policy.js";
import { LIMITS_FIELD, roleLimitsField, TEAM_LIMITS_FIELD } from "./person-grant.js";
import { limitInBaseUnits } from "./policy-limit.js";
import { localText } from "../l10n/translate.js";

/** A currency of the workspace by identifier, or undefined when the workspace has none by that name (404). */
export type CurrencyLookup = (name: string) => Promise<Currency | undefined>;

/**
 * The local policy's limits checked against the workspace: each key must be one of its currency
 * identifiers and each limit readable in that currency's units. A key that names no currency
 * ("SOL" for solana_testnet) would apply no limit at all, so it blocks every write until fixed.
 */
export async function checkPolicyCurrencies(policy: Policy, currencyOf: CurrencyLookup): Promise<Finding[]> {
  const sets: Array<[string, Policy["limits"]]> = [
    [LIMITS_FIELD, policy.limits],
    [TEAM_LIMITS_FIELD, policy.team_limits],
    ...(policy.roles ?? []).map((role): [string, Policy["limits"]] => [roleLimitsField(role), role.limits]),
  ];
  return (await Promise.all(sets.map(([field, limits]) => checkLimitCurrencies(field, limits, currencyOf)))).flat();
}

async function checkLimitCurrencies(field: string, limitsByCurrency: Policy["limits"], currencyOf: CurrencyLookup): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [key, limits] of Object.entries(limitsByCurrency)) {
    const found = await currencyOf(key);
    // A service that matched the key loosely (another case) answers another identifier: limits apply by the exact one.
    const currency = found?.name === key ? found : undefined;
    if (currency === undefined) {
      findings.push(
        finding(
          "block",
          "POLICY_LIMIT_UNKNOWN_CURRENCY",
          localText(
            "the local policy's {0}.{1} names no currency of the workspace, so it would limit nothing: key limits " +
              "by currency identifier (for example solana_testnet, polkadot, ethereum)",
            field,
            key,
          ),
          {
            field: `${field}.${key}`,
          },
        ),
      );
      continue;
    }
    for (const [name, limit] of Object.entries(limits)) {
      if (limit === undefined) continue;
      const base = limitInBaseUnits(limit, currency, `${field}.${key}.${name}`);
      if (typeof base !== "bigint") findings.push(base);
    }
  }
  return findings;
}
