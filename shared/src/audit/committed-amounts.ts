import { existsSync, readFileSync } from "node:fs";
import { AuditRecord } from "./audit-entry.js";

export interface CommittedQuery {
  operator: string;
  currency: string;
  since: Date;
}

/**
 * The `details.outcome` of a record that establishes that a write did not happen: a `resolved`
 * record (the look-up of an ambiguous write) or a `failed` record (the service refused the POST,
 * or it was never sent). Only such a record releases the write's amount from the daily limits.
 */
export const NOT_APPLIED_OUTCOME = "not_applied";

/** Records by which a write counts: reserved before its POST, then submitted or ambiguous. */
const COUNTING_EVENTS: ReadonlySet<string> = new Set(["reserved", "submitted", "ambiguous"]);
/** Records that release a write counted before them, when their outcome is not_applied. */
const RELEASING_EVENTS: ReadonlySet<string> = new Set(["resolved", "failed"]);

function committedAmount(record: AuditRecord): bigint | null {
  const amount = record.details?.policy_amount;
  return typeof amount === "string" && /^[0-9]+$/.test(amount) ? BigInt(amount) : null;
}

function referenceOf(record: AuditRecord): string | null {
  const reference = record.details?.reference;
  return typeof reference === "string" && reference !== "" ? reference : null;
}

/**
 * What an operator's writes committed in a currency since a moment, from the audit log: the base
 * for the local policy's daily limits. Amounts are `details.policy_amount` (base units as a
 * decimal string) of records whose `details.currency` is the currency.
 *
 * A write is identified by `details.reference` (its correlation id, one per confirmation) and
 * counted once if any of its `reserved` (written under the log's lock before the POST),
 * `submitted` or `ambiguous` (the answer was lost, so it may have happened) records lies in the
 * window. A later record of the same operator and reference with `details.outcome` "not_applied"
 * releases it: a `failed` record (the POST was refused or never sent) or a `resolved` record (the
 * look-up established that it did not happen). Any other outcome (`not_found`, `uncertain`, a
 * failure that does not say not_applied) leaves it counted. A counting record without a reference
 * cannot be paired and always counts.
 */
export function committedSince(path: string, query: CommittedQuery): bigint {
  if (!existsSync(path)) return 0n;
  /** Writes by reference, in log order, until a later record releases them. */
  const writes = new Map<string, { amount: bigint; inWindow: boolean }>();
  for (const [index, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line === "") continue;
    const parsed = AuditRecord.safeParse(JSON.parse(line));
    if (!parsed.success || parsed.data.operator !== query.operator) continue;
    const record = parsed.data;
    const reference = referenceOf(record);
    if (RELEASING_EVENTS.has(record.event)) {
      if (reference !== null && record.details?.outcome === NOT_APPLIED_OUTCOME) writes.delete(reference);
      continue;
    }
    if (!COUNTING_EVENTS.has(record.event) || record.details?.currency !== query.currency) continue;
    const amount = committedAmount(record);
    if (amount === null) continue;
    const key = reference ?? `line ${index}`;
    const inWindow = new Date(record.at) >= query.since;
    writes.set(key, { amount, inWindow: inWindow || (writes.get(key)?.inWindow ?? false) });
  }
  let total = 0n;
  for (const write of writes.values()) if (write.inWindow) total += write.amount;
  return total;
}

/**
 * The details every surface writes on a `reserved`, `submitted` or `ambiguous` record of a write,
 * so that committedSince counts it: the currency, the correlation reference and the committed amount.
 */
export function committedDetails(plan: { currency: { name: string }; correlation_id: string; policy_amount: bigint | undefined }): {
  currency: string;
  reference: string;
  policy_amount?: string;
} {
  return {
    currency: plan.currency.name,
    reference: plan.correlation_id,
    ...(plan.policy_amount === undefined ? {} : { policy_amount: plan.policy_amount.toString() }),
  };
}
