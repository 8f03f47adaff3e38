import type { AuditLog } from "../audit/audit-log.js";
import type { AuditInput, AuditRecord } from "../audit/audit-entry.js";
import { committedDetails, committedSince } from "../audit/committed-amounts.js";
import { checkDailyLimit, DAILY_LIMIT_WINDOW_MS } from "../policy/daily-limit.js";
import type { Policy } from "../policy/policy.js";
import type { Finding } from "../rules/finding.js";
import type { PlannedWrite } from "./planned-write.js";

/** What a reservation needs of a plan. */
export type ReservablePlan = Pick<PlannedWrite, "operator" | "currency" | "correlation_id" | "policy_amount" | "request">;

export type Reservation =
  /** `record` is null for a write that moves no amount: there is nothing to reserve. */
  | { reserved: true; record: AuditRecord | null }
  /** The day would pass the policy's max_per_day: nothing may be sent. */
  | { reserved: false; finding: Finding };

/**
 * Reserves the write's amount against the policy's daily maximum, immediately before its POST:
 * under the audit log's lock, re-reads what this operator committed in the currency over the last
 * 24 hours (every surface and process sharing the log included, in-flight reservations too) and
 * appends a `reserved` record only if that plus the amount stays within max_per_day. The record
 * counts toward the daily limits (committedSince) from then on, until a `failed` or `resolved`
 * record with outcome not_applied releases it. The window is measured on the log's own clock.
 */
export function reserveDailyAmount(log: AuditLog, policy: Policy, plan: ReservablePlan, entry: Pick<AuditInput, "surface" | "tool" | "request_digest">): Reservation {
  const amount = plan.policy_amount;
  if (amount === undefined) return { reserved: true, record: null };
  const verdict: { refusal: Finding | null } = { refusal: null };
  const record = log.appendIf(
    { ...entry, event: "reserved", operator: plan.operator, request: plan.request, details: committedDetails(plan) },
    () => {
      const since = new Date(log.time().getTime() - DAILY_LIMIT_WINDOW_MS);
      const spent = committedSince(log.path, { operator: plan.operator, currency: plan.currency.name, since });
      const check = checkDailyLimit(policy, plan.currency, amount, spent);
      verdict.refusal = check?.severity === "block" ? check : null;
      return verdict.refusal === null;
    },
  );
  if (record !== null) return { reserved: true, record };
  if (verdict.refusal === null) throw new Error("unreachable: a reservation refused without a finding");
  return { reserved: false, finding: verdict.refusal };
}

/** A plan's checks with its daily-limit finding replaced by the reservation's verdict. */
export function withReservationFinding(checks: readonly Finding[], finding: Finding): Finding[] {
  return [...checks.filter((check) => check.code !== "POLICY_MAX_PER_DAY" && check.code !== "POLICY_MAX_PER_DAY_OK"), finding];
}
