import { AuditLog, type AuditLogOptions } from "../audit/audit-log.js";
import type { AuditLedger } from "../audit/audit-ledger.js";
import type { AuditInput } from "../audit/audit-entry.js";
import { committedSince, type CommittedQuery } from "../audit/committed-amounts.js";
import { resolve } from "node:path";
import { defaultSealKeyPath, sealKeyFromFile } from "../audit/seal-key.js";
import { FileIntents } from "./file-intents.js";
import { FileWindowShelf } from "./file-window-shelf.js";
import { SavedWindows } from "./saved-windows.js";
import { scanTraces } from "./file-trace-scan.js";
import type {
  DoubtfulWrites,
  GuardStore,
  IntentStanding,
  PreparedIntent,
  Redemption,
  ReservationRequest,
  ReservationResult,
  WaitingFor,
  WaitingIntent,
} from "./guard-store.js";
import { isUnanswered, standingDuplicate, type DoubtfulQuery, type UnansweredQuery, type WriteTrace } from "../audit/write-traces.js";

export type FileGuardStoreOptions = Pick<AuditLogOptions, "lockWaitMs" | "sealKey">;

type RecentQuery = { operator: string; fingerprint: string; since: Date };

/**
 * The embedded store, for one person: the JSONL audit log (the record a person and verify-audit
 * read), its ledger beside it (daily totals and write traces kept up to date at each append, see
 * AuditLog), a small file of the dry runs that can still be confirmed and the nonces used, and one
 * of each account's window of the workspace's history read last (`<log>.windows/`, sealed).
 * Every change takes the log's lock, so several processes sharing the files keep its promises.
 */
export class FileGuardStore implements GuardStore {
  readonly location: string;
  readonly #log: AuditLog;
  readonly #intents: FileIntents;
  /** The accounts' windows of the workspace's history, sealed, bound to this log by its absolute path. */
  readonly windows: SavedWindows;

  constructor(
    readonly path: string,
    private readonly now: () => Date = () => new Date(),
    options: FileGuardStoreOptions = {},
  ) {
    this.location = path;
    const sealKey = options.sealKey ?? sealKeyFromFile(defaultSealKeyPath());
    this.#log = new AuditLog(path, now, { ...options, sealKey });
    this.#intents = new FileIntents(`${path}.intents`, now);
    const store = `file ${resolve(path)}`;
    this.windows = new SavedWindows(sealKey, async () => store, new FileWindowShelf(`${path}.windows`));
  }

  /** Bytes of the log this store has read (see AuditLog.bytesRead). */
  get bytesRead(): number {
    return this.#log.bytesRead;
  }

  time(): Date {
    return this.now();
  }

  async append(input: AuditInput) {
    return this.#log.append(input);
  }

  async committedSince(query: CommittedQuery): Promise<bigint> {
    return this.#committed(this.#log.ledger(), query);
  }

  async prepareIntent(intent: PreparedIntent): Promise<void> {
    await this.#log.withLock(() => this.#intents.prepare(intent));
  }

  async lookUpIntent(nonce: string): Promise<IntentStanding> {
    return this.#log.withLock(() => this.#intents.lookUp(nonce));
  }

  async waitingIntents(query: WaitingFor, limit: number): Promise<WaitingIntent[]> {
    return this.#log.withLock(() => this.#intents.waiting(query, limit));
  }

  /** The directory whose entries change whenever a write starts or stops waiting for its person (a surface watches it to refresh its list). */
  get waitingDirectory(): string {
    return this.#intents.waitingDirectory;
  }

  async redeemIntent(nonce: string): Promise<Redemption> {
    return this.#log.withLock(() => this.#intents.redeem(nonce));
  }

  async linkNonce(nonce: string, reference: string): Promise<void> {
    await this.#log.withLock(() => this.#intents.link(nonce, reference));
  }

  async recentWrites(query: RecentQuery): Promise<WriteTrace[]> {
    return this.#recent(this.#log.ledger(), query);
  }

  async writeByReference(reference: string, since?: Date): Promise<WriteTrace | null> {
    const known = this.#log.ledger().writeByReference(reference, since);
    if (known !== undefined) return known;
    return scanTraces(this.path, (trace) => trace.reference === reference && (since === undefined || new Date(trace.reserved_at) >= since))[0] ?? null;
  }

  async unansweredWrites(query: UnansweredQuery, limit: number): Promise<WriteTrace[]> {
    const kept = this.#log.ledger().unansweredWrites(query);
    const traces =
      kept ??
      scanTraces(this.path, (trace) => trace.operator === query.operator && new Date(trace.reserved_at) >= query.since).filter((trace) =>
        isUnanswered(trace, query),
      );
    return traces.sort((a, b) => b.reserved_at.localeCompare(a.reserved_at)).slice(0, limit);
  }

  /** From the ledger alone (the last LEDGER_KEEPS_MS): a window reaching further back is answered in part, never by reading the whole log. */
  async doubtfulWrites(query: DoubtfulQuery, limit: number): Promise<DoubtfulWrites> {
    const { writes, kept } = this.#log.ledger().doubtfulWrites(query);
    return { writes: writes.slice(0, limit), complete: kept && writes.length <= limit };
  }

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    let refusal: ReservationResult | null = null;
    const record = await this.#log.appendIf(request.record, (ledger) => {
      const traces = this.#recent(ledger, { operator: request.operator, fingerprint: request.fingerprint, since: request.duplicatesSince });
      const earlier = standingDuplicate(traces, request.duplicatesSince, request.repeatOf);
      if (earlier !== null) {
        refusal = { reserved: false, reason: "duplicate", earlier };
        return false;
      }
      for (const limit of request.limits) {
        const finding = limit.check(this.#committed(ledger, limit));
        if (finding !== null && finding.severity === "block") {
          refusal = { reserved: false, reason: "daily_limit", finding };
          return false;
        }
      }
      return true;
    });
    if (record !== null) return { reserved: true, record };
    if (refusal === null) throw new Error("unreachable: a reservation refused without a reason");
    return refusal;
  }

  async close(): Promise<void> {
    await this.windows.settled();
    this.#log.close();
  }

  /** From the ledger; a moment older than it keeps is read from the log. */
  #committed(ledger: AuditLedger, query: CommittedQuery): bigint {
    return ledger.committedSince(query) ?? committedSince(this.path, query);
  }

  #recent(ledger: AuditLedger, query: RecentQuery): WriteTrace[] {
    const kept = ledger.recentWrites(query);
    if (kept !== null) return kept;
    return scanTraces(
      this.path,
      (trace) => trace.operator === query.operator && trace.fingerprint === query.fingerprint && new Date(trace.reserved_at) >= query.since,
    ).sort((a, b) => b.reserved_at.localeCompare(a.reserved_at));
  }
}
