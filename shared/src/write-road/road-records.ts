import type { AuditInput } from "../audit/audit-entry.js";
import type { AuditEventName } from "../audit/audit-events.js";
import { NOT_APPLIED_OUTCOME } from "../audit/committed-amounts.js";
import { FOUND_OUTCOME, NOT_FOUND_OUTCOME } from "../audit/write-traces.js";
import { LOOKED_UP_EVENT, lookupDetails } from "../audit/lookup-tally.js";
import type { PersonOnRecord } from "../identity/person.js";
import type { LookupConclusion, WatchedWrite } from "./background-lookups.js";
import type { LookupResult } from "./lost-answer-lookup.js";
import type { PlannedWrite } from "./planned-write.js";
import type { SendOutcome } from "./send-once.js";
import type { RacedWrite } from "./race-after-send.js";

/**
 * Every audit record the road writes is built here, with the one meaning of its event
 * (AUDIT_EVENT_MEANINGS); the road only appends them.
 */

/** What a record of a planned write adds after its details: the error that stopped it, the transaction it became. */
export interface RecordTail {
  error?: string;
  transaction_id?: number;
}

/** A record of a planned write: its request, the codes of its checks, the digest it was shown and confirmed by. */
export function planRecord(
  surface: string,
  event: AuditEventName,
  plan: PlannedWrite,
  digest: string,
  details: Record<string, unknown>,
  tail: RecordTail = {},
): AuditInput {
  return {
    event,
    surface,
    operator: plan.operator,
    person: plan.person,
    tool: plan.identity.tool,
    request_digest: digest,
    request: plan.request,
    checks: plan.checks.map((check) => ({ code: check.code, severity: check.severity })),
    details,
    ...(tail.error === undefined ? {} : { error: tail.error }),
    ...(tail.transaction_id === undefined ? {} : { transaction_id: tail.transaction_id }),
  };
}

/**
 * The records of a POST's outcome: submitted (after an `ambiguous` one when only a look-up found
 * it), failed and not applied, or ambiguous. `committed`: what the write counts against the limits.
 */
export function sentRecords(
  surface: string,
  plan: PlannedWrite,
  digest: string,
  committed: Record<string, unknown>,
  outcome: SendOutcome,
  raced: RacedWrite | null = null,
): AuditInput[] {
  if (outcome.status === "submitted") {
    return [
      ...(outcome.looked_up ? [planRecord(surface, "ambiguous", plan, digest, { ...committed, answer: outcome.answer, outcome: FOUND_OUTCOME })] : []),
      planRecord(
        surface,
        "submitted",
        plan,
        digest,
        { ...committed, status: outcome.transaction.status, looked_up: outcome.looked_up, ...(raced === null ? {} : { raced_with: raced.transaction_ids }) },
        { transaction_id: outcome.transaction.id },
      ),
    ];
  }
  if (outcome.status === "not_applied")
    return [
      planRecord(surface, "failed", plan, digest, { reference: plan.correlation_id, outcome: NOT_APPLIED_OUTCOME, stage: "send" }, { error: outcome.message }),
    ];
  return [
    planRecord(
      surface,
      "ambiguous",
      plan,
      digest,
      { ...committed, answer: outcome.answer, candidates: outcome.candidates.map((candidate) => candidate.id) },
      { error: outcome.cause },
    ),
  ];
}

/** A call recorded without a plan: one refused or failed before its plan stood, or an operation a surface makes outside the road. */
export interface CallEntry {
  event: AuditEventName;
  operator: string;
  person: PersonOnRecord | null;
  tool: string;
  request_digest?: string | null;
  /** What was asked, when the surface has it (an operation's arguments). */
  request?: unknown;
  error?: string;
  details?: Record<string, unknown>;
}

export function callRecord(surface: string, entry: CallEntry): AuditInput {
  return {
    event: entry.event,
    surface,
    operator: entry.operator,
    person: entry.person,
    tool: entry.tool,
    request_digest: entry.request_digest ?? null,
    ...(entry.request === undefined || entry.request === null ? {} : { request: entry.request }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
    ...(entry.details === undefined ? {} : { details: entry.details }),
  };
}

/** A write whose answer was lost, as its look-ups name it. */
export type LookedUpWrite = Pick<WatchedWrite, "operator" | "person" | "tool" | "reference">;

/** Where a write whose outcome was unknown was concluded: the background look-ups, or a duplicate check that looked it up again. */
export type ResolvingStage = "background_lookup" | "duplicate_check";

/** The `resolved` record of a write whose outcome was unknown. */
export function resolvedRecord(surface: string, write: LookedUpWrite, stage: ResolvingStage, resolution: LookupConclusion): AuditInput {
  const base = { reference: write.reference, stage };
  return {
    event: "resolved",
    surface,
    operator: write.operator,
    person: write.person,
    tool: write.tool,
    request_digest: null,
    ...(resolution.found ? { transaction_id: resolution.transaction.id } : {}),
    details: resolution.found
      ? { ...base, outcome: FOUND_OUTCOME, status: resolution.transaction.status }
      : { ...base, outcome: NOT_FOUND_OUTCOME, looked_for_ms: resolution.lookedForMs },
  };
}

/** The `looked_up` record of one background look-up that did not find the write (null: it could not read). */
export function lookedUpRecord(surface: string, write: LookedUpWrite, result: Exclude<LookupResult, { found: "one" }> | null): AuditInput {
  const found =
    result === null
      ? lookupDetails("failed")
      : result.found === "none"
        ? lookupDetails("nothing")
        : lookupDetails(
            "candidates",
            result.candidates.map((candidate) => candidate.id),
          );
  return {
    event: LOOKED_UP_EVENT,
    surface,
    operator: write.operator,
    person: write.person,
    tool: write.tool,
    request_digest: null,
    details: { reference: write.reference, stage: "background_lookup", ...found },
  };
}
