import { foldTrace, isDoubtful, isUnanswered, type DoubtfulQuery, type UnansweredQuery, type WriteTrace } from "./write-traces.js";
import type { AuditRecord } from "./audit-entry.js";
import type { ChainPoint } from "./chain-check.js";
import { CommittedWrites, type CommittedEntry, type CommittedQuery } from "./committed-amounts.js";

/** How far back the ledger keeps writes: the 24 h of the daily limits and the duplicate check, and an hour for writers whose clocks differ. */
export const LEDGER_KEEPS_MS = 25 * 60 * 60 * 1000;
const PRUNE_EVERY_RECORDS = 10_000;

/** The last line a ledger has folded (and verified): its sequence number and hash, and the log's length through it. */
export interface Checkpoint extends ChainPoint {
  offset: number;
}

/** A ledger as its file holds it. */
export interface LedgerState {
  checkpoint: Checkpoint | null;
  newestMs: number | null;
  prunedBeforeMs: number | null;
  committed: CommittedEntry[];
  traces: WriteTrace[];
}

/**
 * What the guard asks of an audit log, kept up to date record by record instead of read from the
 * whole log: the writes counted against daily limits and the traces of writes (by reference), for
 * the last LEDGER_KEEPS_MS before the newest record. A question about an older moment gets null:
 * the caller reads the log for it.
 */
export class AuditLedger {
  #checkpoint: Checkpoint | null = null;
  readonly #committed = new CommittedWrites();
  readonly #traces = new Map<string, WriteTrace>();
  #newestMs = -Infinity;
  /** Set once anything was forgotten: questions about moments before it are not answered here. */
  #prunedBeforeMs: number | null = null;
  #foldedSincePrune = 0;

  static restore(state: LedgerState): AuditLedger {
    const ledger = new AuditLedger();
    ledger.#checkpoint = state.checkpoint;
    ledger.#newestMs = state.newestMs ?? -Infinity;
    ledger.#prunedBeforeMs = state.prunedBeforeMs;
    for (const entry of state.committed) ledger.#committed.set(entry);
    for (const trace of state.traces) ledger.#traces.set(trace.reference, trace);
    return ledger;
  }

  get checkpoint(): Checkpoint | null {
    return this.#checkpoint;
  }

  /** Folds the next line of the log, `end` being the log's length through it. */
  fold(record: AuditRecord, end: number): void {
    this.#committed.fold(record);
    foldTrace(this.#traces, record);
    this.#checkpoint = { seq: record.seq, hash: record.hash, offset: end };
    const at = Date.parse(record.at);
    if (at > this.#newestMs) this.#newestMs = at;
    this.#foldedSincePrune += 1;
    if (this.#foldedSincePrune >= PRUNE_EVERY_RECORDS) this.prune();
  }

  /** Forgets what lies more than LEDGER_KEEPS_MS before the newest record. */
  prune(): void {
    this.#foldedSincePrune = 0;
    if (this.#newestMs === -Infinity) return;
    const before = this.#newestMs - LEDGER_KEEPS_MS;
    let pruned = this.#committed.prune(before);
    for (const [reference, trace] of this.#traces) {
      if (Date.parse(trace.reserved_at) >= before) continue;
      this.#traces.delete(reference);
      pruned = true;
    }
    if (pruned) this.#prunedBeforeMs = Math.max(this.#prunedBeforeMs ?? -Infinity, before);
  }

  /** See CommittedWrites; null when `since` is older than what the ledger keeps. */
  committedSince(query: CommittedQuery): bigint | null {
    return this.#keeps(query.since) ? this.#committed.total(query) : null;
  }

  /** The operator's writes of the intent since a moment, newest first; null when `since` is older than what the ledger keeps. */
  recentWrites(query: { operator: string; fingerprint: string; since: Date }): WriteTrace[] | null {
    if (!this.#keeps(query.since)) return null;
    return [...this.#traces.values()]
      .filter((trace) => trace.operator === query.operator && trace.fingerprint === query.fingerprint && new Date(trace.reserved_at) >= query.since)
      .sort((a, b) => b.reserved_at.localeCompare(a.reserved_at));
  }

  /** The writes left unanswered since a moment, newest first; null when `since` is older than what the ledger keeps. */
  unansweredWrites(query: UnansweredQuery): WriteTrace[] | null {
    if (!this.#keeps(query.since)) return null;
    return [...this.#traces.values()].filter((trace) => isUnanswered(trace, query)).sort((a, b) => b.reserved_at.localeCompare(a.reserved_at));
  }

  /** The doubtful writes of the window that it keeps, newest first; `kept` is false when the window starts before what it keeps. */
  doubtfulWrites(query: DoubtfulQuery): { writes: WriteTrace[]; kept: boolean } {
    const writes = [...this.#traces.values()].filter((trace) => isDoubtful(trace, query)).sort((a, b) => b.reserved_at.localeCompare(a.reserved_at));
    return { writes, kept: this.#keeps(query.since) };
  }

  /**
   * The write with this reference (with `since`, reserved since then); null when there is none,
   * undefined when it may be among those forgotten (older than what the ledger keeps).
   */
  writeByReference(reference: string, since?: Date): WriteTrace | null | undefined {
    const trace = this.#traces.get(reference);
    if (trace !== undefined) return since === undefined || new Date(trace.reserved_at) >= since ? trace : null;
    return this.#prunedBeforeMs === null || (since !== undefined && this.#keeps(since)) ? null : undefined;
  }

  state(): LedgerState {
    return {
      checkpoint: this.#checkpoint,
      newestMs: this.#newestMs === -Infinity ? null : this.#newestMs,
      prunedBeforeMs: this.#prunedBeforeMs,
      committed: [...this.#committed.entries()],
      traces: [...this.#traces.values()],
    };
  }

  #keeps(since: Date): boolean {
    return this.#prunedBeforeMs === null || since.getTime() >= this.#prunedBeforeMs;
  }
}
