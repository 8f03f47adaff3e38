import type { AuditRecord } from "./audit-entry.js";

/**
 * The `details.outcome` of a record that establishes that a write did not happen: a `resolved`
 * record (the look-up of an ambiguous write) or a `failed` record (the service refused the POST,
 * or it was never sent). Only such a record releases the write's amount from the daily limits.
 */
export const NOT_APPLIED_OUTCOME = "not_applied";

/**
 * The `details` key of a write's counting records naming the write whose count against the team's
 * limit already covers it (an approval of a transaction a team's write created): not counted for
 * the team again.
 */
export const TEAM_COUNTED_BY = "team_counted_by";

/**
 * What one record does to the amounts committedSince counts, for a store that keeps them as it
 * appends rather than reading the log again: a write's amount counted (again) at a moment, or
 * released. Folding every record's effect in order gives committedSince's answer for any window.
 */
export type CommitmentEffect =
  /**
   * Counts `amount` for the write `key` (its reference, or `#<seq>` for a record without one) of the
   * operator and person (subject, or null) in the currency, latest at `at`; for the team too unless
   * `team` is false (an approval of a transaction the team's own write created and counted).
   */
  | { kind: "count"; operator: string; person: string | null; team: boolean; key: string; currency: string; amount: bigint; at: string }
  /** Stops counting the operator's write with this reference, in every currency. */
  | { kind: "release"; operator: string; key: string };

const COUNTING_EVENTS: ReadonlySet<string> = new Set(["reserved", "submitted", "ambiguous"]);
const RELEASING_EVENTS: ReadonlySet<string> = new Set(["resolved", "failed"]);

export function commitmentEffect(record: AuditRecord): CommitmentEffect | null {
  const reference = typeof record.details?.reference === "string" && record.details.reference !== "" ? record.details.reference : null;
  if (RELEASING_EVENTS.has(record.event)) {
    return reference !== null && record.details?.outcome === NOT_APPLIED_OUTCOME ? { kind: "release", operator: record.operator, key: reference } : null;
  }
  const currency = record.details?.currency;
  const amount = record.details?.policy_amount;
  if (!COUNTING_EVENTS.has(record.event) || typeof currency !== "string" || typeof amount !== "string" || !/^[0-9]+$/.test(amount)) return null;
  const team = typeof record.details?.[TEAM_COUNTED_BY] !== "string";
  return {
    kind: "count",
    operator: record.operator,
    person: record.person?.subject ?? null,
    team,
    key: reference ?? `#${record.seq}`,
    currency,
    amount: BigInt(amount),
    at: record.at,
  };
}
