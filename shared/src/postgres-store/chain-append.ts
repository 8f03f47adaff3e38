import type { TransactionSql } from "postgres";
import { AuditRecord, GENESIS_HASH, type AuditInput } from "../audit/audit-entry.js";
import { commitmentEffect } from "../audit/commitment-effect.js";
import { auditLine, sealAuditRecord } from "../audit/sealed-record.js";
import type { WriteTrace } from "../guard-store/guard-store.js";
import { foldTrace } from "../guard-store/write-traces.js";
import { CHAIN_LOCK, LOCK_NAMESPACE } from "./schema-migrations.js";
import { traceFromRow, type TraceRow } from "./trace-rows.js";

/**
 * Takes the chain's lock for the rest of the transaction: every append (and every reservation's
 * checks) of every process sharing the database runs one at a time, so the chain stays one line.
 */
export async function lockChain(tx: TransactionSql): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${CHAIN_LOCK})`;
}

/** The record an earlier attempt of this append wrote (its answer lost with its connection), or null. */
export async function appendedBefore(tx: TransactionSql, appendKey: string): Promise<AuditRecord | null> {
  const [row] = await tx<{ line: string }[]>`SELECT line FROM custody_audit WHERE append_key = ${appendKey}`;
  return row === undefined ? null : AuditRecord.parse(JSON.parse(row.line));
}

/**
 * Appends one record after the chain's last, under the lock (lockChain first), and keeps the write
 * traces and the committed amounts it changes, in the same transaction.
 */
export async function appendLocked(tx: TransactionSql, input: AuditInput, appendKey: string, at: Date): Promise<AuditRecord> {
  const [tail] = await tx<{ seq: string; hash: string }[]>`SELECT seq, hash FROM custody_audit ORDER BY seq DESC LIMIT 1`;
  const record = sealAuditRecord(input, tail === undefined ? { seq: 0, prevHash: GENESIS_HASH } : { seq: Number(tail.seq) + 1, prevHash: tail.hash }, at);
  await tx`INSERT INTO custody_audit (seq, at, event, operator, hash, line, append_key)
    VALUES (${record.seq}, ${record.at}, ${record.event}, ${record.operator}, ${record.hash}, ${auditLine(record)}, ${appendKey})`;
  await foldIntoTraces(tx, record);
  await foldIntoCommitments(tx, record);
  return record;
}

async function foldIntoTraces(tx: TransactionSql, record: AuditRecord): Promise<void> {
  const reference = record.details?.reference;
  if (typeof reference !== "string" || reference === "") return;
  const traces = new Map<string, WriteTrace>();
  const [row] = await tx<TraceRow[]>`SELECT * FROM custody_write_traces WHERE reference = ${reference}`;
  if (row !== undefined) traces.set(reference, traceFromRow(row));
  const before = JSON.stringify(traces.get(reference) ?? null);
  foldTrace(traces, record);
  const trace = traces.get(reference);
  if (trace === undefined || JSON.stringify(trace) === before) return;
  await tx`INSERT INTO custody_write_traces (reference, operator, fingerprint, tool, reserved_at, status, transaction_id, repeat_of)
    VALUES (${trace.reference}, ${trace.operator}, ${trace.fingerprint}, ${trace.tool}, ${trace.reserved_at}, ${trace.status}, ${trace.transaction_id}, ${trace.repeat_of})
    ON CONFLICT (reference) DO UPDATE SET operator = EXCLUDED.operator, fingerprint = EXCLUDED.fingerprint, tool = EXCLUDED.tool,
      reserved_at = EXCLUDED.reserved_at, status = EXCLUDED.status, transaction_id = EXCLUDED.transaction_id, repeat_of = EXCLUDED.repeat_of`;
}

async function foldIntoCommitments(tx: TransactionSql, record: AuditRecord): Promise<void> {
  const effect = commitmentEffect(record);
  if (effect === null) return;
  if (effect.kind === "release") {
    await tx`DELETE FROM custody_commitments WHERE operator = ${effect.operator} AND key = ${effect.key}`;
    return;
  }
  await tx`INSERT INTO custody_commitments (operator, key, currency, amount, last_at)
    VALUES (${effect.operator}, ${effect.key}, ${effect.currency}, ${effect.amount.toString()}, ${effect.at})
    ON CONFLICT (operator, key, currency) DO UPDATE SET amount = EXCLUDED.amount, last_at = GREATEST(custody_commitments.last_at, EXCLUDED.last_at)`;
}
