import { z } from "zod";
import type { AuditRecord } from "./audit-entry.js";
import { NOT_APPLIED_OUTCOME } from "./committed-amounts.js";
import { WriteRecognition } from "../kinds/kit/lost-answer-fields.js";
import { LastLookup, LOOKED_UP_EVENT, tallyLookup, type LookupTally } from "./lookup-tally.js";
import { UnclearAnswer, unclearAnswerOf } from "./unclear-answer.js";

/** Where one write stands, as the store's records tell. */
export type TraceStatus = "in_flight" | "submitted" | "uncertain" | "not_applied";

/** A write that reached the reservation: one per correlation reference; with its look-ups' tally once its answer was lost. */
export interface WriteTrace extends LookupTally {
  reference: string;
  fingerprint: string;
  operator: string;
  tool: string;
  /** When its amount was reserved, just before the POST (ISO 8601). */
  reserved_at: string;
  status: TraceStatus;
  transaction_id: number | null;
  /** The earlier write this one repeated on purpose (its transaction id, or its reference while unknown), or null. */
  repeat_of: string | null;
  /** The subject of the signed-in person it was made for (its `reserved` record's); absent for a single user, or a row an earlier version wrote. */
  person?: string | undefined;
  /** What identifies it among the workspace's transactions, kept before its POST (absent on a write recorded before it was kept). */
  recognition?: WriteRecognition | undefined;
  /**
   * The request its dry run kept (a sealed intent's `request`, amounts as digit strings: person mode's, or one a view
   * confirms), which a later call naming its reference must ask for; absent otherwise, and on a write recorded before it was kept.
   */
  kept_request?: Record<string, unknown> | undefined;
  /** Set when a look-up gave up on it (not found within its horizon): no process resumes it; it still counts and is still looked up by the duplicate check. */
  given_up?: true | undefined;
  /** When its answer was lost or unclear (its `ambiguous` record), for a write whose outcome its answer left unknown. */
  answer_lost_at?: string | undefined;
  /** What came back from its POST then (its `ambiguous` record's); absent on a write recorded before it was kept. */
  answer?: UnclearAnswer | undefined;
  /**
   * When a write whose outcome was unknown was concluded: one whose answer was lost or unclear (found, known not applied, or given
   * up on: `resolved` or `failed`), or one never answered that a look-up concluded (`resolved`: its process stopped before any answer).
   */
  concluded_at?: string | undefined;
  /** How long the look-ups that gave up on it looked (ms). */
  looked_for_ms?: number | undefined;
}

/** Writes of an operator since a moment whose outcome no process has established: reserved with no answer, or answered ambiguously, and not given up on. */
export interface UnansweredQuery {
  operator: string;
  since: Date;
  /** With it, only those reserved by then: sent so long ago that their sender, were it alive, would have concluded them. */
  sentBy?: Date;
}

/**
 * An operator's writes whose answer was lost or that were never answered (reserved, no
 * transaction, no conclusion), sent by the window's end: those still unknown whenever they were
 * sent (issue 21: "is anything uncertain?" has no window), the others when sent or concluded in it.
 */
export interface DoubtfulQuery {
  operator: string;
  since: Date;
  until: Date;
}

/** A write trace as stores keep it (the file ledger): every field of WriteTrace, so a saved and read-back trace is the one folded. */
export const WriteTraceEntry: z.ZodType<WriteTrace> = z.object({
  reference: z.string(),
  fingerprint: z.string(),
  operator: z.string(),
  tool: z.string(),
  reserved_at: z.string(),
  status: z.enum(["in_flight", "submitted", "uncertain", "not_applied"]),
  transaction_id: z.int().nullable(),
  repeat_of: z.string().nullable(),
  person: z.string().optional(),
  recognition: WriteRecognition.optional(),
  kept_request: z.record(z.string(), z.unknown()).optional(),
  given_up: z.literal(true).optional(),
  answer_lost_at: z.string().optional(),
  answer: UnclearAnswer.optional(),
  concluded_at: z.string().optional(),
  looked_for_ms: z.number().optional(),
  lookups: z.int().nonnegative().optional(),
  last_lookup: LastLookup.optional(),
});

/** The outcome of a `resolved` record whose look-up found the transaction. */
export const FOUND_OUTCOME = "found";
/** The outcome of a `resolved` record whose look-ups gave up: it may still have happened, and stays counted. */
export const NOT_FOUND_OUTCOME = "not_found";

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * Folds one audit record into the traces of the writes it concerns (keyed by reference): a
 * `reserved` record with a fingerprint starts a trace; `submitted`, `ambiguous`, `resolved` and
 * `failed` records of the same reference move it on; `looked_up` records are tallied. One
 * definition for every store.
 */
export function foldTrace(traces: Map<string, WriteTrace>, record: AuditRecord): void {
  const reference = text(record.details?.reference);
  if (reference === null) return;
  if (record.event === "reserved") {
    const fingerprint = text(record.details?.fingerprint);
    if (fingerprint === null) return;
    traces.set(reference, {
      reference,
      fingerprint,
      operator: record.operator,
      tool: record.tool,
      reserved_at: record.at,
      status: "in_flight",
      transaction_id: null,
      repeat_of: text(record.details?.repeat_of),
      ...(record.person == null ? {} : { person: record.person.subject }),
      ...recognitionOf(record),
      ...keptRequestOf(record),
    });
    return;
  }
  const trace = traces.get(reference);
  if (trace === undefined || trace.operator !== record.operator) return;
  const transactionId = typeof record.transaction_id === "number" ? record.transaction_id : null;
  const outcome = record.details?.outcome;
  // A write whose answer was lost keeps when, and when it was concluded: what list_activity tells of it. So does one never
  // answered that a look-up concluded (a `resolved` record while it is in flight: its process stopped before any answer).
  const concludes = trace.answer_lost_at !== undefined || (record.event === "resolved" && trace.status === "in_flight");
  const concluded = concludes ? { concluded_at: record.at } : {};
  if (record.event === LOOKED_UP_EVENT) {
    traces.set(reference, { ...trace, ...tallyLookup(trace, record) });
  } else if (record.event === "submitted" && transactionId !== null) {
    traces.set(reference, { ...trace, status: "submitted", transaction_id: transactionId, ...concluded });
  } else if (record.event === "ambiguous" && trace.status === "in_flight") {
    traces.set(reference, { ...trace, status: "uncertain", answer_lost_at: trace.answer_lost_at ?? record.at, ...unclearAnswerOf(record.details) });
  } else if (record.event === "resolved" && outcome === FOUND_OUTCOME && transactionId !== null) {
    traces.set(reference, { ...trace, status: "submitted", transaction_id: transactionId, ...concluded });
  } else if ((record.event === "failed" || record.event === "resolved") && outcome === NOT_APPLIED_OUTCOME) {
    traces.set(reference, { ...trace, status: "not_applied", ...concluded });
  } else if (record.event === "resolved" && outcome === NOT_FOUND_OUTCOME && trace.transaction_id === null) {
    const lookedFor = record.details?.looked_for_ms;
    traces.set(reference, { ...trace, given_up: true, ...concluded, ...(typeof lookedFor === "number" ? { looked_for_ms: lookedFor } : {}) });
  }
}

/** The recognition a `reserved` record keeps, when it keeps one that parses. */
function recognitionOf(record: AuditRecord): { recognition?: WriteRecognition } {
  const parsed = WriteRecognition.safeParse(record.details?.recognition);
  return parsed.success ? { recognition: parsed.data } : {};
}

/** The request a `reserved` record says its person-mode dry run kept, when it says one. */
function keptRequestOf(record: AuditRecord): { kept_request?: Record<string, unknown> } {
  const kept = record.details?.kept_request;
  return kept !== null && typeof kept === "object" && !Array.isArray(kept) ? { kept_request: kept as Record<string, unknown> } : {};
}

/** Whether a trace is a write of the query whose outcome no process has established (and that can be looked up). */
export function isUnanswered(trace: WriteTrace, query: UnansweredQuery): boolean {
  return (
    trace.operator === query.operator &&
    trace.transaction_id === null &&
    (trace.status === "in_flight" || trace.status === "uncertain") &&
    trace.given_up !== true &&
    trace.recognition !== undefined &&
    new Date(trace.reserved_at) >= query.since &&
    (query.sentBy === undefined || new Date(trace.reserved_at) <= query.sentBy)
  );
}

/**
 * Whether a trace is a write of the query whose answer was lost or unclear, or that was never answered (concluded by a
 * look-up or not): still unknown, or sent or concluded within its window.
 */
export function isDoubtful(trace: WriteTrace, query: DoubtfulQuery): boolean {
  const reserved = new Date(trace.reserved_at);
  const unanswered = trace.transaction_id === null && trace.status === "in_flight";
  const concluded = trace.concluded_at === undefined ? null : new Date(trace.concluded_at);
  if (trace.operator !== query.operator || reserved > query.until || (trace.answer_lost_at === undefined && !unanswered && concluded === null)) return false;
  const unknown = trace.transaction_id === null && trace.status !== "not_applied";
  return unknown || reserved >= query.since || (concluded !== null && concluded >= query.since && concluded <= query.until);
}

/** What `repeat_of` adds to the reference of an earlier write whose outcome is unknown: the person's acknowledgement that sending again may pay twice. */
export const MAY_PAY_TWICE = ":may-pay-twice";

/**
 * How a person names an earlier write to repeat it: its transaction id, or while its outcome is
 * unknown its reference with MAY_PAY_TWICE (the earlier write may already be applied).
 */
export function repeatKey(trace: Pick<WriteTrace, "transaction_id" | "reference">): string {
  return trace.transaction_id === null ? `${trace.reference}${MAY_PAY_TWICE}` : String(trace.transaction_id);
}

/**
 * The earlier write that makes a new one with this fingerprint a duplicate: the newest trace that
 * may have happened (anything but not_applied) since the moment, unless the person acknowledged
 * exactly it. Null when the write may go.
 */
export function standingDuplicate(traces: readonly WriteTrace[], since: Date, repeatOf: string | null): WriteTrace | null {
  const standing = traces
    .filter((trace) => trace.status !== "not_applied" && new Date(trace.reserved_at) >= since)
    .sort((a, b) => b.reserved_at.localeCompare(a.reserved_at));
  const newest = standing[0];
  if (newest === undefined) return null;
  return repeatOf !== null && repeatKey(newest) === repeatOf ? null : newest;
}
