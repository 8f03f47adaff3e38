import type { Network } from "../schemas/account.js";
import { sameAddress } from "../schemas/address-format.js";
import type { Currency } from "../schemas/currency.js";
import { finding, type Finding } from "../rules/finding.js";
import { checkDailyLimit } from "./daily-limit.js";
import type { Policy, Toolset } from "./policy.js";
import { describePolicyAmount, limitInBaseUnits } from "./policy-limit.js";

/** What a write would do, as far as the local policy is concerned. */
export interface PolicySubject {
  currency: Currency;
  /** The account's network: it decides how addresses compare (only Ethereum hex ignores case). */
  network: Network | null;
  /** The base-unit quantity the write moves or commits, fees included (amount plus max_fees); undefined when none applies. */
  amount?: bigint;
  recipient?: string;
  validator?: string;
  contract?: string;
  /**
   * The toolset of the operation the write releases, when it is not the tool's own: an approval
   * releases a send, a stake or a contract call created by someone else.
   */
  toolset?: Toolset;
  /** What this operator's writes already moved in this currency in the last 24 hours. */
  spentLast24h: bigint;
}

function allowList(list: string[] | undefined, value: string | undefined, network: Network | null, code: string, what: string): Finding[] {
  if (list === undefined || value === undefined) return [];
  return list.some((entry) => sameAddress(network, entry, value))
    ? [finding("info", `${code}_OK`, `${what} ${value} is on the local policy's allowed list`, { [what]: value })]
    : [finding("block", `${code}_NOT_ALLOWED`, `${what} ${value} is not on the local policy's allowed list (${list.length} entries)`, { [what]: value })];
}

function toolsetCheck(policy: Policy, toolset: Toolset | undefined): Finding[] {
  if (policy.toolsets === undefined || toolset === undefined) return [];
  return policy.toolsets.includes(toolset)
    ? [finding("info", "POLICY_TOOLSET_OK", `the local policy enables the toolset ${toolset} of the operation`, { toolset })]
    : [finding("block", "POLICY_TOOLSET_NOT_ENABLED", `the operation belongs to the toolset ${toolset}, which the local policy does not enable`, { toolset })];
}

/**
 * The local policy's limits and allow-lists for one write. Limits apply to every write
 * that carries an amount, per currency, per transaction and over a rolling 24 hours.
 */
export function checkPolicy(policy: Policy, subject: PolicySubject): Finding[] {
  const findings: Finding[] = [];
  const limits = policy.limits[subject.currency.name];
  if (limits && subject.amount !== undefined) {
    if (limits.max_per_transaction) {
      const max = limitInBaseUnits(limits.max_per_transaction, subject.currency, `limits.${subject.currency.name}.max_per_transaction`);
      findings.push(
        typeof max !== "bigint"
          ? max
          : subject.amount > max
          ? finding("block", "POLICY_MAX_PER_TRANSACTION", `the write commits ${describePolicyAmount(subject.amount, subject.currency)} (amount plus max fees), above the local policy's maximum per transaction of ${describePolicyAmount(max, subject.currency)}`, { amount: subject.amount, max })
          : finding("info", "POLICY_MAX_PER_TRANSACTION_OK", `the write commits ${describePolicyAmount(subject.amount, subject.currency)} (amount plus max fees), within the local policy's maximum per transaction of ${describePolicyAmount(max, subject.currency)}`, { amount: subject.amount, max }),
      );
    }
    const daily = checkDailyLimit(policy, subject.currency, subject.amount, subject.spentLast24h);
    if (daily) findings.push(daily);
  }
  const limited = Object.keys(policy.limits);
  if (!limits && subject.amount !== undefined && limited.length > 0) {
    // Said aloud: a limit keyed by something other than this currency's identifier applies to nothing.
    findings.push(
      finding("info", "POLICY_NO_LIMIT", `the local policy sets limits for ${limited.join(", ")}, none for ${subject.currency.name}: no limit applies to this write (limits are keyed by currency identifier)`, {
        currency: subject.currency.name,
      }),
    );
  }
  findings.push(...toolsetCheck(policy, subject.toolset));
  findings.push(...allowList(policy.allowed_recipients, subject.recipient, subject.network, "POLICY_RECIPIENT", "recipient"));
  findings.push(...allowList(policy.allowed_validators, subject.validator, subject.network, "POLICY_VALIDATOR", "validator"));
  findings.push(...allowList(policy.allowed_contracts, subject.contract, subject.network, "POLICY_CONTRACT", "contract"));
  return findings;
}
