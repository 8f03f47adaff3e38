import { AuditRecord, GENESIS_HASH } from "../audit/audit-entry.js";
import { canonicalJson } from "../audit/canonical-json.js";
import { auditHash, withoutHash } from "../audit/chain-check.js";
import { CommittedWrites, type CommittedQuery } from "../audit/committed-amounts.js";
import { AuditSealError, resealHint } from "../audit/seal-file.js";
import { foldTrace, type WriteTrace } from "../audit/write-traces.js";
import { scopeKey } from "../policy/limit-scope.js";
import type { Queryable } from "./database-pool.js";
import { writeCommitmentRow, writeTraceRow } from "./derived-row-writes.js";
import { TRACE_CONCLUSION_VERSION, TRACE_PERSON_VERSION } from "./schema-migrations.js";
import { traceFromRow, type TraceRow } from "./trace-rows.js";

/** Writers' clocks may differ: records up to an hour older than a window's start are folded too (as the file ledger keeps 25 hours). */
const CLOCK_SLACK_MS = 3_600_000;

const RESEAL = resealHint("--store <the database>");

/**
 * What the derived tables (custody_commitments, custody_write_traces) must hold for a window,
 * folded from the chain's own records: the rows are kept by each append, but anyone with the
 * database can DELETE or UPDATE them, and the seal covers only the chain.
 */
export interface ChainWindow {
  since: Date;
  commitments: CommittedWrites;
  traces: Map<string, WriteTrace>;
  /** The references of `traces` by operator and fingerprint (intentKey): a reservation's check reads its intent's, not the day's. */
  intents: Map<string, Set<string>>;
  /** The window's first record: every record from it to `last` was folded. */
  firstSeq: number;
  /** The window's first record as last found, and the fold's start it was found for: every record before it has its time column before that start. */
  start: { seq: number; from: Date };
  /** The last record read and checked (folded, or the one before the window), or null when none was. */
  last: ChainLink | null;
}

/** A record of the chain as the next one links to it. */
export interface ChainLink {
  seq: number;
  hash: string;
}

/** A row of custody_audit as the window's reads select it. */
export interface ChainRow {
  seq: string;
  hash: string;
  line: string;
}

/** A row's line as JSON, or null when it is not JSON (an edited row: refused as one whose hash does not seal it). */
function parsedLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** Where the fold of a window starting at `since` starts: the clock slack before it. */
export function foldStart(since: Date): Date {
  return new Date(since.getTime() - CLOCK_SLACK_MS);
}

/**
 * Checks rows of the chain in order, from a window's start or after a record already checked:
 * each row's record against its own hash and its link to the one before; the first, when nothing
 * was checked before it, must be the chain's first or the record before the window (its sealed
 * time before the fold's start). Every failure is an AuditSealError naming the record.
 */
export class ChainWalk {
  constructor(
    private readonly from: Date,
    public previous: ChainLink | null = null,
  ) {}

  /** The row's record when it is in the window; null for the record before the window. */
  take(row: ChainRow): AuditRecord | null {
    const parsed = AuditRecord.safeParse(parsedLine(row.line));
    const record = parsed.success ? parsed.data : null;
    if (record === null || String(record.seq) !== row.seq || record.hash !== row.hash || auditHash(withoutHash(record)) !== record.hash) {
      throw new AuditSealError(`the audit chain's record ${row.seq} is not the record its hash seals (it was edited); ${RESEAL}`);
    }
    const previous = this.previous;
    if (previous === null && Date.parse(record.at) < this.from.getTime()) {
      // The record before the window: only what the window's first record links to.
      this.previous = { seq: record.seq, hash: record.hash };
      return null;
    }
    if (previous === null && (record.seq !== 0 || record.prev_hash !== GENESIS_HASH)) {
      throw new AuditSealError(
        `the audit chain's window starts at record ${record.seq}, which is neither the ` +
          "chain's first nor linked to a record before the window (records were removed " +
          `from its start, or their times changed); ${RESEAL}`,
      );
    }
    if (previous !== null && (record.seq !== previous.seq + 1 || record.prev_hash !== previous.hash)) {
      throw new AuditSealError(`the audit chain is broken between records ${previous.seq} and ${record.seq} (a record was removed or edited); ${RESEAL}`);
    }
    this.previous = { seq: record.seq, hash: record.hash };
    return record;
  }
}

/**
 * The number of the window's first record ($1: the fold's start), through custody_audit_at. The
 * subquery is fenced (OFFSET 0): a bare min(seq) is planned as a walk of the primary key from the
 * chain's first record, filtering on `at`, which read a million-record table whole (590 ms).
 */
export const WINDOW_FIRST_SEQ = "(SELECT min(seq) FROM (SELECT seq FROM custody_audit WHERE at >= $1 OFFSET 0) AS day)";

/**
 * Folds the chain's records from the first one at or after `since` (less the clock slack) to its
 * end, checking that they are one unbroken chain (ChainWalk): a record deleted or edited in the
 * window is found here; the window's end is the sealed record (checked by every append). Its start
 * is held too: the window's first record is the chain's first, or links to the record before it,
 * whose own sealed time is before the window (the `at` column is not sealed), so records cut from
 * the window's start, or moved out of it by their column, are found. Reads the window and one
 * record before it, never the whole table (custody_audit_at, migration 8); `onRows` is told how
 * many rows it read.
 */
export async function chainWindow(db: Queryable, since: Date, onRows: (count: number) => void = () => {}): Promise<ChainWindow> {
  const from = foldStart(since);
  let { rows } = await db.query<ChainRow>(`SELECT seq, hash, line FROM custody_audit WHERE seq >= ${WINDOW_FIRST_SEQ} - 1 ORDER BY seq`, [from]);
  // No record's time column is in the window: the last record's sealed time must be before it too, or the
  // columns were moved back (the whole day would fold as empty); ChainWalk refuses such a last record.
  if (rows.length === 0) ({ rows } = await db.query<ChainRow>("SELECT seq, hash, line FROM custody_audit ORDER BY seq DESC LIMIT 1"));
  onRows(rows.length);
  const walk = new ChainWalk(from);
  const window: ChainWindow = {
    since,
    commitments: new CommittedWrites(),
    traces: new Map(),
    intents: new Map(),
    firstSeq: 0,
    start: { seq: 0, from },
    last: null,
  };
  let firstSeq: number | null = null;
  for (const row of rows) {
    const record = walk.take(row);
    if (record === null) continue;
    firstSeq ??= record.seq;
    foldIntoWindow(window, record);
  }
  window.last = walk.previous;
  window.firstSeq = firstSeq ?? (walk.previous === null ? 0 : walk.previous.seq + 1);
  window.start = { seq: window.firstSeq, from };
  return window;
}

function intentKey(operator: string, fingerprint: string): string {
  return JSON.stringify([operator, fingerprint]);
}

/** Folds the window's next record: the committed amounts, the write traces and their references by intent. */
export function foldIntoWindow(window: ChainWindow, record: AuditRecord): void {
  window.commitments.fold(record);
  foldTrace(window.traces, record);
  const reference = record.details?.reference;
  const trace = typeof reference === "string" ? window.traces.get(reference) : undefined;
  if (trace === undefined) return;
  const key = intentKey(trace.operator, trace.fingerprint);
  const references = window.intents.get(key) ?? new Set<string>();
  window.intents.set(key, references.add(trace.reference));
}

/** Forgets the window's writes whose every record is older than `beforeMs` (no query since then or later counts them). */
export function pruneWindow(window: ChainWindow, beforeMs: number): void {
  window.commitments.prune(beforeMs);
  for (const [reference, trace] of window.traces) {
    if (Date.parse(trace.reserved_at) >= beforeMs) continue;
    window.traces.delete(reference);
    const key = intentKey(trace.operator, trace.fingerprint);
    const references = window.intents.get(key);
    references?.delete(reference);
    if (references?.size === 0) window.intents.delete(key);
  }
}

function derivedMismatch(what: string): AuditSealError {
  return new AuditSealError(
    `${what}: the guard's derived rows disagree with its sealed audit chain (they were edited or deleted), so ` +
      `the daily limits and the duplicate check cannot be trusted; nothing was sent; ${RESEAL}`,
  );
}

/** The committed amount the chain's window gives for a query, against the table's; a difference is an AuditSealError. */
export function requireCommittedAgrees(window: ChainWindow, query: CommittedQuery, fromTable: bigint): void {
  const fromChain = window.commitments.total(query);
  if (fromChain !== fromTable) {
    throw derivedMismatch(
      `custody_commitments counts ${fromTable} base units of ${query.currency} for ${scopeKey(query.scope)} ` +
        `since ${query.since.toISOString()}, but the audit chain's records count ${fromChain}`,
    );
  }
}

/** The traces the chain's window gives for one operator's intent, against the table's rows; a difference is an AuditSealError. */
export function requireTracesAgree(window: ChainWindow, query: { operator: string; fingerprint: string; since: Date }, fromTable: readonly WriteTrace[]): void {
  const since = query.since.getTime();
  const fromChain: WriteTrace[] = [];
  for (const reference of window.intents.get(intentKey(query.operator, query.fingerprint)) ?? []) {
    const trace = window.traces.get(reference);
    if (trace?.operator === query.operator && trace.fingerprint === query.fingerprint && Date.parse(trace.reserved_at) >= since) fromChain.push(trace);
  }
  // A store that is open migrated its schema: its rows name their persons and their conclusions.
  const differs = tracesDiffer(fromChain, fromTable, TRACE_CONCLUSION_VERSION);
  if (differs !== null) throw derivedMismatch(`custody_write_traces ${differs} (operator ${query.operator})`);
}

/**
 * The trace as a schema of `version` keeps it. From TRACE_PERSON_VERSION a row naming no person must be a write whose
 * record names none; before it, a row an earlier version wrote (schema 10 added the column) is compared on the rest.
 * Before TRACE_CONCLUSION_VERSION a row keeps no answer, nor a conclusion that a look-up alone gave (verify-audit reads a
 * database it does not migrate).
 */
function asSchemaKeeps(trace: WriteTrace, row: WriteTrace, version: number): WriteTrace {
  let kept = row.person === undefined && version < TRACE_PERSON_VERSION ? { ...trace, person: undefined } : trace;
  if (version < TRACE_CONCLUSION_VERSION) {
    kept = { ...kept, answer: undefined };
    if (concludedByLookUpAlone(trace)) kept = { ...kept, concluded_at: undefined };
  }
  return kept;
}

/** Null when both hold the same writes in the same states, else what differs; `version`: the schema the rows were written in. */
function tracesDiffer(fromChain: readonly WriteTrace[], fromTable: readonly WriteTrace[], version: number): string | null {
  const table = new Map(fromTable.map((trace) => [trace.reference, trace]));
  for (const trace of fromChain) {
    const row = table.get(trace.reference);
    if (row === undefined) return `lacks the write ${trace.reference} that the audit chain records`;
    const folded = asSchemaKeeps(trace, row, version);
    if (canonicalJson(comparable(row)) !== canonicalJson(comparable(folded)))
      return `holds the write ${trace.reference} in another state than the audit chain records`;
    table.delete(trace.reference);
  }
  const extra = table.keys().next();
  return extra.done === true ? null : `holds a write ${extra.value} that the audit chain does not record`;
}

/**
 * Whether the trace's conclusion is one the fold before TRACE_CONCLUSION_VERSION did not give: a look-up concluded the write
 * while no answer of it was recorded lost (none ever was, or only after that conclusion).
 */
function concludedByLookUpAlone(trace: WriteTrace): boolean {
  if (trace.concluded_at === undefined) return false;
  return trace.answer_lost_at === undefined || Date.parse(trace.concluded_at) < Date.parse(trace.answer_lost_at);
}

/** What a trace says that a row must keep as the fold made it (times compared as instants). */
function comparable(trace: WriteTrace): unknown {
  const instant = (value: string | undefined) => (value === undefined ? null : Date.parse(value));
  return { ...trace, reserved_at: instant(trace.reserved_at), answer_lost_at: instant(trace.answer_lost_at), concluded_at: instant(trace.concluded_at) };
}

/**
 * At open and in verify-audit: every derived row of the window (commitments counting since
 * `since`, traces reserved since it) against the chain's fold. Null when they agree, else why not.
 */
export async function derivedRowsDiffer(db: Queryable, since: Date): Promise<string | null> {
  let window: ChainWindow;
  try {
    window = await chainWindow(db, since);
  } catch (error) {
    if (error instanceof AuditSealError) return error.message;
    throw error;
  }
  const { rows: commitments } = await db.query<{ operator: string; key: string; currency: string; amount: string; person: string | null; team: boolean }>(
    "SELECT operator, key, currency, amount::text AS amount, person, team FROM custody_commitments WHERE last_at >= $1",
    [since],
  );
  const expected = new Map<string, string>();
  for (const entry of window.commitments.entries()) {
    if (entry.latestMs >= since.getTime())
      expected.set(canonicalJson([entry.operator, entry.key, entry.currency]), canonicalJson([entry.amount.toString(), entry.person, entry.team]));
  }
  for (const row of commitments) {
    const id = canonicalJson([row.operator, row.key, row.currency]);
    if (expected.get(id) !== canonicalJson([row.amount, row.person, row.team]))
      return derivedMismatch(
        `custody_commitments holds ${row.amount} of ${row.currency} for the write ${row.key} of ${row.operator}, which the audit chain does not count so`,
      ).message;
    expected.delete(id);
  }
  const missing = expected.keys().next();
  if (missing.done !== true) {
    const [operator, key, currency] = JSON.parse(missing.value) as [string, string, string];
    return derivedMismatch(`custody_commitments lacks the ${currency} the audit chain counts for the write ${key} of ${operator}`).message;
  }
  const { rows: traces } = await db.query<TraceRow>("SELECT * FROM custody_write_traces WHERE reserved_at >= $1", [since]);
  const fromChain = [...window.traces.values()].filter((trace) => Date.parse(trace.reserved_at) >= since.getTime());
  const { rows: schema } = await db.query<{ version: number | null }>("SELECT max(version) AS version FROM custody_schema_migrations");
  const differs = tracesDiffer(fromChain, traces.map(traceFromRow), schema[0]?.version ?? 0);
  return differs === null ? null : derivedMismatch(`custody_write_traces ${differs}`).message;
}

/**
 * A person's reseal: the window's derived rows written again from the chain's fold, so rows
 * edited or deleted are what the chain says once more (in the reseal's transaction, under the lock).
 */
export async function rebuildDerivedRows(db: Queryable, since: Date): Promise<void> {
  const window = await chainWindow(db, since);
  await db.query("DELETE FROM custody_commitments WHERE last_at >= $1", [since]);
  for (const entry of window.commitments.entries()) {
    if (entry.latestMs < since.getTime()) continue;
    await writeCommitmentRow(db, { kind: "count", ...entry, at: new Date(entry.latestMs).toISOString() });
  }
  await db.query("DELETE FROM custody_write_traces WHERE reserved_at >= $1", [since]);
  for (const trace of window.traces.values()) if (Date.parse(trace.reserved_at) >= since.getTime()) await writeTraceRow(db, trace);
}

/**
 * In the migration to TRACE_PERSON_VERSION: the window's rows written before schema 10 (naming no person) get the person
 * their audit record names, so that from then on a row naming no person disagrees with a chain that names one.
 */
export async function fillTracePersons(db: Queryable, since: Date): Promise<void> {
  const window = await chainWindow(db, since);
  for (const trace of window.traces.values()) {
    // Every trace the window folds, not only those reserved since `since`: a replica whose clock is behind reads a little further back.
    if (trace.person === undefined) continue;
    await db.query("UPDATE custody_write_traces SET person = $2 WHERE reference = $1 AND person IS NULL", [trace.reference, trace.person]);
  }
}

/**
 * In the migration to TRACE_CONCLUSION_VERSION: the window's rows of writes never answered that a look-up concluded get the
 * conclusion the fold now gives them (an earlier fold gave them none), so that they agree with the chain and list_activity
 * lists them when concluded in its window. Only that column, and only where it is empty: a row edited otherwise still disagrees.
 */
export async function fillTraceConclusions(db: Queryable, since: Date): Promise<void> {
  const window = await chainWindow(db, since);
  for (const trace of window.traces.values()) {
    if (!concludedByLookUpAlone(trace)) continue;
    await db.query("UPDATE custody_write_traces SET concluded_at = $2 WHERE reference = $1 AND concluded_at IS NULL", [trace.reference, trace.concluded_at]);
  }
}
