import type { TraceStatus, WriteTrace } from "../audit/write-traces.js";
import { WriteRecognition } from "../kinds/kit/lost-answer-fields.js";
import { LastLookup } from "../audit/lookup-tally.js";
import { UnclearAnswer } from "../audit/unclear-answer.js";

/** A row of custody_write_traces as the driver returns it (bigint as text, timestamptz as Date, jsonb parsed). */
export interface TraceRow {
  reference: string;
  operator: string;
  fingerprint: string;
  tool: string;
  reserved_at: Date;
  status: string;
  transaction_id: string | null;
  repeat_of: string | null;
  person: string | null;
  recognition: unknown;
  kept_request: Record<string, unknown> | null;
  given_up: boolean;
  answer_lost_at: Date | null;
  answer: unknown;
  concluded_at: Date | null;
  looked_for_ms: string | null;
  lookups: number;
  last_lookup: unknown;
}

export function traceFromRow(row: TraceRow): WriteTrace {
  const recognition = WriteRecognition.safeParse(row.recognition);
  const lastLookup = LastLookup.safeParse(row.last_lookup);
  const answer = UnclearAnswer.safeParse(row.answer);
  return {
    reference: row.reference,
    fingerprint: row.fingerprint,
    operator: row.operator,
    tool: row.tool,
    reserved_at: row.reserved_at.toISOString(),
    status: row.status as TraceStatus,
    transaction_id: row.transaction_id === null ? null : Number(row.transaction_id),
    repeat_of: row.repeat_of,
    ...(row.person === null ? {} : { person: row.person }),
    ...(recognition.success ? { recognition: recognition.data } : {}),
    ...(row.kept_request === null ? {} : { kept_request: row.kept_request }),
    ...(row.given_up ? { given_up: true as const } : {}),
    ...(row.answer_lost_at === null ? {} : { answer_lost_at: row.answer_lost_at.toISOString() }),
    ...(answer.success ? { answer: answer.data } : {}),
    ...(row.concluded_at === null ? {} : { concluded_at: row.concluded_at.toISOString() }),
    ...(row.looked_for_ms === null ? {} : { looked_for_ms: Number(row.looked_for_ms) }),
    ...(row.lookups > 0 ? { lookups: row.lookups } : {}),
    ...(lastLookup.success ? { last_lookup: lastLookup.data } : {}),
  };
}
