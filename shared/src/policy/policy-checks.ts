import type { Currency } from "../schemas/currency.js";
import { finding, type Finding } from "../rules/finding.js";
import { toBaseUnits, type AmountInUnit } from "../units/amount-in-unit.js";
import { formatUnits } from "../units/format-units.js";
import { displayUnit } from "../units/currency-units.js";
import type { Policy } from "./policy.js";

/** What a write would do, as far as the local policy is concerned. */
export interface PolicySubject {
  currency: Currency;
  /** The base-unit quantity the write moves or commits; undefined when none applies. */
  amount?: bigint;
  recipient?: string;
  validator?: string;
  contract?: string;
  /** What this operator's writes already moved in this currency in the last 24 hours. */
  spentLast24h: bigint;
}

function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function show(amount: bigint, currency: Currency): string {
  return `${formatUnits(amount, currency)} ${displayUnit(currency).code} (${amount} base units)`;
}

function allowList(list: string[] | undefined, value: string | undefined, code: string, what: string): Finding[] {
  if (list === undefined || value === undefined) return [];
  return list.some((entry) => sameAddress(entry, value))
    ? [finding("info", `${code}_OK`, `${what} ${value} is on the local policy's allowed list`, { [what]: value })]
    : [finding("block", `${code}_NOT_ALLOWED`, `${what} ${value} is not on the local policy's allowed list (${list.length} entries)`, { [what]: value })];
}

/** A configured limit in base units, or a blocking finding when it cannot be read for this currency. */
function limitInBaseUnits(limit: AmountInUnit, currency: Currency, field: string): bigint | Finding {
  try {
    return toBaseUnits(limit, currency, field);
  } catch (error) {
    return finding("block", "POLICY_LIMIT_INVALID", `the local policy's ${field} cannot be applied: ${(error as Error).message}`, { field });
  }
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
          ? finding("block", "POLICY_MAX_PER_TRANSACTION", `amount ${show(subject.amount, subject.currency)} is above the local policy's maximum per transaction of ${show(max, subject.currency)}`, { amount: subject.amount, max })
          : finding("info", "POLICY_MAX_PER_TRANSACTION_OK", `amount is within the local policy's maximum per transaction of ${show(max, subject.currency)}`, { amount: subject.amount, max }),
      );
    }
    if (limits.max_per_day) {
      const max = limitInBaseUnits(limits.max_per_day, subject.currency, `limits.${subject.currency.name}.max_per_day`);
      const total = subject.spentLast24h + subject.amount;
      findings.push(
        typeof max !== "bigint"
          ? max
          : total > max
          ? finding("block", "POLICY_MAX_PER_DAY", `this write would bring the last 24 hours to ${show(total, subject.currency)}, above the local policy's daily maximum of ${show(max, subject.currency)}`, { amount: subject.amount, spent_last_24h: subject.spentLast24h, max })
          : finding("info", "POLICY_MAX_PER_DAY_OK", `the last 24 hours stay within the local policy's daily maximum of ${show(max, subject.currency)}`, { amount: subject.amount, spent_last_24h: subject.spentLast24h, max }),
      );
    }
  }
  findings.push(...allowList(policy.allowed_recipients, subject.recipient, "POLICY_RECIPIENT", "recipient"));
  findings.push(...allowList(policy.allowed_validators, subject.validator, "POLICY_VALIDATOR", "validator"));
  findings.push(...allowList(policy.allowed_contracts, subject.contract, "POLICY_CONTRACT", "contract"));
  return findings;
}
