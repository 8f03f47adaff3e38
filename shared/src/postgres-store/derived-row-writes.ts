import type { CommitmentEffect } from "../audit/commitment-effect.js";
import type { WriteTrace } from "../audit/write-traces.js";
import type { Queryable } from "./database-pool.js";

/** Writes a write's trace as the fold made it (one row per reference). */
export async function writeTraceRow(client: Queryable, trace: WriteTrace): Promise<void> {
  await client.query(
    "INSERT INTO custody_write_traces (reference, operator, fingerprint, tool, reserved_at, status, " +
      "transaction_id, repeat_of, recognition, given_up, answer_lost_at, concluded_at, looked_for_ms, lookups, " +
      "last_lookup, person, kept_request, answer)\n" +
      "     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)\n" +
      "     ON CONFLICT (reference) DO UPDATE SET operator = EXCLUDED.operator, fingerprint = " +
      "EXCLUDED.fingerprint, tool = EXCLUDED.tool,\n" +
      "       reserved_at = EXCLUDED.reserved_at, status = EXCLUDED.status, transaction_id = " +
      "EXCLUDED.transaction_id, repeat_of = EXCLUDED.repeat_of,\n" +
      "       recognition = EXCLUDED.recognition, given_up = EXCLUDED.given_up, answer_lost_at = " +
      "EXCLUDED.answer_lost_at, concluded_at = EXCLUDED.concluded_at,\n" +
      "       looked_for_ms = EXCLUDED.looked_for_ms, lookups = EXCLUDED.lookups, last_lookup = " +
      "EXCLUDED.last_lookup, person = EXCLUDED.person, kept_request = EXCLUDED.kept_request, answer = EXCLUDED.answer",
    [
      trace.reference,
      trace.operator,
      trace.fingerprint,
      trace.tool,
      trace.reserved_at,
      trace.status,
      trace.transaction_id,
      trace.repeat_of,
      trace.recognition === undefined ? null : JSON.stringify(trace.recognition),
      trace.given_up === true,
      trace.answer_lost_at ?? null,
      trace.concluded_at ?? null,
      trace.looked_for_ms ?? null,
      trace.lookups ?? 0,
      trace.last_lookup === undefined ? null : JSON.stringify(trace.last_lookup),
      trace.person ?? null,
      trace.kept_request === undefined ? null : JSON.stringify(trace.kept_request),
      trace.answer === undefined ? null : JSON.stringify(trace.answer),
    ],
  );
}

/** Counts a write's amount in a currency as of its newest counting record (one row per operator, write and currency). */
export async function writeCommitmentRow(client: Queryable, effect: Extract<CommitmentEffect, { kind: "count" }>): Promise<void> {
  await client.query(
    "INSERT INTO custody_commitments (operator, key, currency, amount, last_at, person, team) " +
      "VALUES ($1, $2, $3, $4, $5, $6, $7)\n" +
      "     ON CONFLICT (operator, key, currency) DO UPDATE SET amount = EXCLUDED.amount, person = " +
      "EXCLUDED.person, team = EXCLUDED.team, last_at = GREATEST(custody_commitments.last_at, EXCLUDED.last_at)",
    [effect.operator, effect.key, effect.currency, effect.amount.toString(), effect.at, effect.person, effect.team],
  );
}
