import { existsSync, readFileSync } from "node:fs";
import { AuditRecord } from "./audit-entry.js";

export interface CommittedQuery {
  operator: string;
  currency: string;
  since: Date;
}

/**
 * The `details.outcome` of a `resolved` record that establishes that an ambiguous write did not
 * happen: the only resolution that releases its amount from the daily limits.
 */
export const NOT_APPLIED_OUTCOME = "not_applied";

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
 * decimal string) of records whose `details.currency` is the currency, counted at the record's time:
 *
 * - every `submitted` record counts;
 * - an `ambiguous` record (the POST went out, its answer was lost) counts too, because the write
 *   may have happened, unless a later record of the same operator with the same
 *   `details.reference` (the write's correlation id, one per confirmation) settles it: a
 *   `submitted` record (the look-up found the write, which that record counts) or a `resolved`
 *   record with `details.outcome` "not_applied". A `resolved` record with any other outcome
 *   (`not_found`, `uncertain`) leaves it counted; an ambiguous record without a reference
 *   cannot be settled and always counts.
 */
export function committedSince(path: string, query: CommittedQuery): bigint {
  if (!existsSync(path)) return 0n;
  let total = 0n;
  /** Ambiguous writes in the window, by reference, until a later record settles them. */
  const unsettled = new Map<string, bigint>();
  for (const [index, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line === "") continue;
    const parsed = AuditRecord.safeParse(JSON.parse(line));
    if (!parsed.success || parsed.data.operator !== query.operator) continue;
    const record = parsed.data;
    const reference = referenceOf(record);
    if (reference !== null && (record.event === "submitted" || (record.event === "resolved" && record.details?.outcome === NOT_APPLIED_OUTCOME))) {
      unsettled.delete(reference);
    }
    if (record.event !== "submitted" && record.event !== "ambiguous") continue;
    if (record.details?.currency !== query.currency || new Date(record.at) < query.since) continue;
    const amount = committedAmount(record);
    if (amount === null) continue;
    if (record.event === "submitted") total += amount;
    else unsettled.set(reference ?? `line ${index}`, amount);
  }
  for (const amount of unsettled.values()) total += amount;
  return total;
}

/**
 * The details every surface writes on a `submitted` or `ambiguous` record of a write, so that
 * committedSince counts it: the currency, the correlation reference and the committed amount.
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
