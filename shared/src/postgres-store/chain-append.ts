import { AuditRecord, type AuditInput } from "../audit/audit-entry.js";
import { CHAIN_START } from "../audit/chain-check.js";
import { commitmentEffect } from "../audit/commitment-effect.js";
import { auditLine, sealAuditRecord } from "../audit/sealed-record.js";
import { foldTrace, type WriteTrace } from "../audit/write-traces.js";
import type { PoolClient } from "./database-pool.js";
import { CHAIN_LOCK, LOCK_NAMESPACE } from "./schema-migrations.js";
import type { AuditSealKey } from "../audit/seal-key.js";
import { recordsAfterSeal, requireSealedChain, writeTableSeal } from "./table-seal.js";
import { writeCommitmentRow, writeTraceRow } from "./derived-row-writes.js";
import { traceFromRow, type TraceRow } from "./trace-rows.js";

/**
 * Takes the chain's lock for the rest of the transaction: every append (and every reservation's
 * checks) of every process sharing the database runs one at a time, so the chain stays one line.
 */
export async function lockChain(client: PoolClient): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_NAMESPACE, CHAIN_LOCK]);
}

/** The record an earlier attempt of this append wrote (its answer lost with its connection), or null. */
export async function appendedBefore(client: PoolClient, appendKey: string): Promise<AuditRecord | null> {
  const { rows } = await client.query<{ line: string }>("SELECT line FROM custody_audit WHERE append_key = $1", [appendKey]);
  return rows[0] === undefined ? null : AuditRecord.parse(JSON.parse(rows[0].line));
}

/**
 * How an append treats the chain's seal: checked first (every append), absent allowed
 * (the first seal of a chain), or replaced unchecked (a person's reseal); checked against the
 * key's register of the chain named `register` too (chainRegisterName).
 */
export interface ChainSealing {
  key: AuditSealKey;
  mode?: "append" | "first_seal" | "reseal";
  register?: string | null;
}

/**
 * Appends one record after the chain's last, under the lock (lockChain first), and keeps the write
 * traces, the committed amounts it changes and the chain's seal, in the same transaction. The
 * chain must hold its seal first: records cut from its end are never sealed over.
 */
export async function appendLocked(client: PoolClient, input: AuditInput, appendKey: string, at: Date, sealing: ChainSealing): Promise<AuditRecord> {
  const seal = sealing.mode === "reseal" ? null : await requireSealedChain(client, sealing.key, sealing.mode === "first_seal", sealing.register);
  const { rows } = await client.query<{ seq: string; hash: string }>("SELECT seq, hash FROM custody_audit ORDER BY seq DESC LIMIT 1");
  const tail = rows[0];
  // The record continued is the sealed one, read again: a record committed after the seal's check (SQL racing the append,
  // not under the lock) would otherwise be sealed over; one committed after this read takes the number this append inserts.
  const last = tail === undefined ? CHAIN_START : { seq: Number(tail.seq), hash: tail.hash };
  if (seal !== null && (last.seq !== seal.seq || last.hash !== seal.hash)) throw recordsAfterSeal(seal.seq, last.seq);
  const record = sealAuditRecord(input, { seq: last.seq + 1, prevHash: last.hash }, at);
  await client.query("INSERT INTO custody_audit (seq, at, event, operator, hash, line, append_key) VALUES ($1, $2, $3, $4, $5, $6, $7)", [
    record.seq,
    record.at,
    record.event,
    record.operator,
    record.hash,
    auditLine(record),
    appendKey,
  ]);
  await foldIntoTraces(client, record);
  await foldIntoCommitments(client, record);
  await writeTableSeal(client, sealing.key, record);
  return record;
}

async function foldIntoTraces(client: PoolClient, record: AuditRecord): Promise<void> {
  const reference = record.details?.reference;
  if (typeof reference !== "string" || reference === "") return;
  const traces = new Map<string, WriteTrace>();
  const { rows } = await client.query<TraceRow>("SELECT * FROM custody_write_traces WHERE reference = $1", [reference]);
  if (rows[0] !== undefined) traces.set(reference, traceFromRow(rows[0]));
  const before = JSON.stringify(traces.get(reference) ?? null);
  foldTrace(traces, record);
  const trace = traces.get(reference);
  if (trace === undefined || JSON.stringify(trace) === before) return;
  await writeTraceRow(client, trace);
}

async function foldIntoCommitments(client: PoolClient, record: AuditRecord): Promise<void> {
  const effect = commitmentEffect(record);
  if (effect === null) return;
  if (effect.kind === "release") {
    await client.query("DELETE FROM custody_commitments WHERE operator = $1 AND key = $2", [effect.operator, effect.key]);
    return;
  }
  await writeCommitmentRow(client, effect);
}
