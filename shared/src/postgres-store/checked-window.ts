import type { AuditRecord } from "../audit/audit-entry.js";
import { CHAIN_START } from "../audit/chain-check.js";
import { AuditSealError, resealHint } from "../audit/seal-file.js";
import type { Queryable } from "./database-pool.js";
import { ChainWalk, chainWindow, foldIntoWindow, foldStart, pruneWindow, WINDOW_FIRST_SEQ, type ChainRow, type ChainWindow } from "./derived-rows.js";

/** The window's first record and the one before it (or the chain's first two), through custody_audit_at. */
const WINDOW_START_ROWS = `SELECT seq, hash, line FROM custody_audit WHERE seq >= ${WINDOW_FIRST_SEQ} - 1 ORDER BY seq LIMIT 2`;

/** Two rows from the one numbered $1 on, and whether their time column is in the window (at or after the fold's start, $2). */
const START_ROWS = "SELECT seq, hash, line, at >= $2 AS in_window FROM custody_audit WHERE seq >= $1 ORDER BY seq LIMIT 2";

/** Up to $3 records' numbers from $1 on, the same way: the walk to the window's first record (primary key, no line read). */
const WALK_ROWS = "SELECT seq, at >= $2 AS in_window FROM custody_audit WHERE seq >= $1 ORDER BY seq LIMIT $3";

const RESEAL = resealHint("--store <the database>");

/** The walk's largest step: it reads 4, 16, 64, … records a query. */
const WALK_MAX = 1024;

/** Records folded into the kept window between two prunings of what left it. */
const PRUNE_EVERY = 1_000;

interface WalkRow {
  seq: string;
  in_window: boolean;
}

/**
 * The chain's window as this process last checked it (ChainWindow: the fold, and the last record
 * read and checked), kept between reservations so that each reads only the records appended since,
 * not the window again (issue 18's check of the derived rows; a busy team's day of records was read,
 * parsed and hashed at every reservation). Call under the chain's lock.
 *
 * Only records read from the chain and checked go into it (never what this process appends, so a
 * transaction that rolls back leaves nothing it did not commit). It is a cache of checked data, never
 * something a request needs from an earlier one: whatever it cannot vouch for costs the whole
 * window's read (chainWindow), which is also what a fresh process does and what finds every fault:
 * the last record it checked is no longer that record (its hash), the window's start does not hold
 * (ChainWalk's rules on its first record and the one before it) or lies before the fold's first
 * record or after its last, a new record does not continue the chain, a new `sealed` record (a
 * person's reseal starts the fold again from the chain as it stands), or an earlier window asked for.
 * A record edited after it was checked is not read again here: the fold keeps what the chain said
 * when checked, the derived rows are still held to it, and the edit breaks the chain's link to the
 * sealed tail, which opening the store and verify-audit check.
 */
export class CheckedWindow {
  #kept: ChainWindow | null = null;
  #rowsRead = 0;
  #foldedSincePrune = 0;

  /** Rows of custody_audit the checks have read so far (for tests and the bench: what a reservation's check costs). */
  get rowsRead(): number {
    return this.#rowsRead;
  }

  /** The window since `since`, checked against the chain; an AuditSealError when the chain is not intact there. */
  async since(db: Queryable, since: Date): Promise<ChainWindow> {
    const kept = this.#kept;
    // Dropped first: a check that fails half-way leaves no fold it did not finish.
    this.#kept = null;
    const counted = (count: number) => (this.#rowsRead += count);
    const window = (kept === null ? null : await this.#caughtUp(db, kept, since)) ?? (await chainWindow(db, since, counted));
    if (window.last !== null) this.#kept = window;
    return window;
  }

  /**
   * After the reservation's append: the window checked ends at the record `appended` continues, the sealed last one
   * (appendLocked). Records read past it were not the guard's (none is sealed): inserted by SQL and removed again before
   * the append checked the seal, they counted in the check. Then the kept window is dropped and an AuditSealError thrown.
   */
  requireContinuedBy(window: ChainWindow, appended: AuditRecord): void {
    const last = window.last ?? CHAIN_START;
    if (last.seq === appended.seq - 1 && last.hash === appended.prev_hash) return;
    this.#kept = null;
    throw new AuditSealError(
      `the audit chain's records the derived rows were checked against go past its sealed last record ${appended.seq - 1} ` +
        `(to record ${last.seq}): records were inserted and removed by hand during the check; nothing was sent; ${RESEAL}`,
    );
  }

  /** The kept window with the records appended since folded in, or null when it cannot vouch for the window since `since`. */
  async #caughtUp(db: Queryable, kept: ChainWindow, since: Date): Promise<ChainWindow | null> {
    const last = kept.last;
    const from = foldStart(since);
    if (last === null || since < kept.since) return null;
    // A fold start earlier than the one the kept start was found for (a shorter window asked before): the index's answer.
    const start = from >= kept.start.from ? await this.#windowStart(db, kept.start.seq, from) : await this.#read<ChainRow>(db, WINDOW_START_ROWS, [from]);
    const first = firstInWindow(start, from);
    if (first === null || first < kept.firstSeq || first > last.seq + 1) return null;
    const rows = await this.#read<ChainRow>(db, "SELECT seq, hash, line FROM custody_audit WHERE seq >= $1 ORDER BY seq", [last.seq]);
    if (rows[0]?.seq !== String(last.seq) || rows[0].hash !== last.hash) return null;
    const walk = new ChainWalk(from, last);
    const records: AuditRecord[] = [];
    try {
      for (const row of rows.slice(1)) records.push(walk.take(row) as AuditRecord);
    } catch (error) {
      if (error instanceof AuditSealError) return null;
      throw error;
    }
    if (records.some((record) => record.event === "sealed")) return null;
    for (const record of records) foldIntoWindow(kept, record);
    this.#foldedSincePrune += records.length;
    // What is older than the fold's start no query of this window or a later one counts (each filters by time): forgotten every
    // PRUNE_EVERY records folded, as the file ledger does, not at every reservation (a pass over the day's writes).
    if (this.#foldedSincePrune >= PRUNE_EVERY) {
      this.#foldedSincePrune = 0;
      pruneWindow(kept, from.getTime());
    }
    return { ...kept, since: from > kept.since ? from : kept.since, start: { seq: first, from }, last: walk.previous };
  }

  /**
   * The window's first record and the one before it, found from the kept window's start (`seq`,
   * found for an earlier fold start): the records before it have their time column
   * before that start, so the window's first is the first from it on whose column is at or after
   * `from` (what WINDOW_FIRST_SEQ answers, without reading the day's index entries). The walk reads
   * only the records that left the window since; usually none, and this is one query of two rows.
   */
  async #windowStart(db: Queryable, keptSeq: number, from: Date): Promise<ChainRow[]> {
    const start = await this.#read<ChainRow & WalkRow>(db, START_ROWS, [keptSeq - 1, from]);
    const kept = start.find((row) => row.seq === String(keptSeq));
    // Gone, or still in the window: the rows are the window's start, for ChainWalk's rules to judge.
    if (kept === undefined || kept.in_window) return start;
    let seq = keptSeq + 1;
    for (let size = 4; ; size = Math.min(size * 4, WALK_MAX)) {
      const rows = await this.#read<WalkRow>(db, WALK_ROWS, [seq, from, size]);
      const found = rows.find((row) => row.in_window);
      if (found !== undefined) return this.#read<ChainRow>(db, START_ROWS, [Number(found.seq) - 1, from]);
      // No record's column is in the window: the whole read decides (the last record's sealed time).
      if (rows.length < size) return [];
      seq = Number(rows.at(-1)?.seq) + 1;
    }
  }

  async #read<Row extends ChainRow | WalkRow>(db: Queryable, sql: string, values: unknown[]): Promise<Row[]> {
    const { rows } = await db.query<Row>(sql, values);
    this.#rowsRead += rows.length;
    return rows;
  }
}

/** The window's first record's number, when the window's start holds (ChainWalk), else null. */
function firstInWindow(start: readonly ChainRow[], from: Date): number | null {
  const walk = new ChainWalk(from);
  try {
    for (const row of start) {
      const record = walk.take(row);
      if (record !== null) return record.seq;
    }
  } catch (error) {
    if (error instanceof AuditSealError) return null;
    throw error;
  }
  return null;
}
