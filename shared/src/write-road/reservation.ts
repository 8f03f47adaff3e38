import { checkDailyLimit } from "../policy/daily-limit.js";
import type { LimitSet } from "../policy/limit-scope.js";
import type { Finding } from "../schemas/finding.js";
import type { AuditInput } from "../audit/audit-entry.js";
import type { ReservationRequest } from "../guard-store/guard-store.js";
import type { PlannedWrite } from "./planned-write.js";

/** What the store reserves a write by, besides its `reserved` record. */
export interface ReservationOf {
  record: AuditInput;
  fingerprint: string;
  duplicatesSince: Date;
  /** The acknowledgement the store checks (DuplicateVerdict.storeRepeatOf). */
  repeatOf: string | null;
  /** The limit sets the write counts against, and the start of their window. */
  limitSets: readonly LimitSet[];
  limitsSince: Date;
}

/** The reservation of a planned write: its intent against earlier identical writes, its amount against each daily maximum of its currency. */
export function reservationRequest(plan: PlannedWrite, of: ReservationOf): ReservationRequest {
  const amount = plan.policy_amount;
  const currency = plan.currency;
  return {
    record: of.record,
    operator: plan.operator,
    fingerprint: of.fingerprint,
    reference: plan.correlation_id,
    duplicatesSince: of.duplicatesSince,
    repeatOf: of.repeatOf,
    limits:
      amount === undefined
        ? []
        : of.limitSets
            .filter((set) => set.limits[currency.name]?.max_per_day !== undefined)
            .map((set) => ({
              scope: set.scope,
              currency: currency.name,
              since: of.limitsSince,
              check: (spent: bigint) => checkDailyLimit(set, currency, amount, spent),
            })),
  };
}

/** The plan as the reservation refused it: its verdict replaces the plan's finding of the same limit (its _OK) or of the repeat. */
export function blockedByReservation(plan: PlannedWrite, finding: Finding | null): PlannedWrite {
  if (finding === null) return plan;
  const replaced = [finding.code, `${finding.code}_OK`, "REPEAT_ACKNOWLEDGED"];
  return { ...plan, checks: [...plan.checks.filter((check) => !replaced.includes(check.code)), finding] };
}
