import { randomUUID } from "node:crypto";
import type { AuditInput, AuditRecord } from "../audit/audit-entry.js";
import type { CommittedQuery } from "../audit/committed-amounts.js";
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
} from "../guard-store/guard-store.js";
import { standingDuplicate, type DoubtfulQuery, type UnansweredQuery, type WriteTrace } from "../audit/write-traces.js";
import { appendedBefore, appendLocked, lockChain, type ChainSealing } from "./chain-append.js";
import { defaultSealKeyPath, sealKeyFromFile, type AuditSealKey } from "../audit/seal-key.js";
import { inTransaction, type Pool, type PoolClient, type Queryable } from "./database-pool.js";
import type { ChainPoint } from "../audit/chain-check.js";
import { AuditSealError, resealHint } from "../audit/seal-file.js";
import type { DatabaseTarget } from "./database-url.js";
import { CheckedWindow } from "./checked-window.js";
import { requireCommittedAgrees, requireTracesAgree } from "./derived-rows.js";
import { traceFromRow, type TraceRow } from "./trace-rows.js";
import { withRetry } from "./transient-errors.js";
import { SavedWindows } from "../guard-store/saved-windows.js";
import { storeIdentity, WindowRows } from "./window-rows.js";
import { chainRegisterName, registerChainSeal } from "./chain-register.js";

/** The waiting_for column of a person's dry runs: '' for a single user (a subject is never empty). */
function waitingKey(person: string | null): string {
  return person ?? "";
}

/** Expired intents removed by each new dry run: the tables stay small without a sweep reading them whole. */
const EXPIRED_BATCH = 100;

export interface PostgresStoreOptions {
  /** The store's clock (records' times, the windows' ends). */
  now?: () => Date;
  /** How long an operation keeps trying through lost connections (a database restart) before failing; default 30 s. */
  retryForMs?: number;
  /** Told when an operation is tried again (the message already redacted). */
  log?: (line: string) => void;
  /** The key the chain's high-water mark is sealed with; default: the one in defaultSealKeyPath() (created if missing). */
  sealKey?: AuditSealKey;
}

/**
 * The guard's state in PostgreSQL, for a team: every replica of the server shares it. Appends
 * (and each reservation's checks with its append) run one at a time under an advisory lock in
 * their transaction, so the chain stays one line across processes; write traces and committed
 * amounts are kept by the append that changes them, in indexed tables, so no request reads a
 * whole table; a nonce is redeemed under its row's lock, once. Every operation is run again
 * through lost connections and recognises its own earlier attempt, so none happens twice.
 */
export class PostgresGuardStore implements GuardStore {
  readonly location: string;
  readonly #now: () => Date;
  readonly #retryForMs: number;
  readonly #log: (line: string) => void;
  readonly #sealing: ChainSealing;
  readonly #window = new CheckedWindow();
  /** The accounts' windows of the workspace's history, sealed, bound to this database by its identity (custody_store_identity). */
  readonly windows: SavedWindows;
  #identity: string | null = null;
  /** The newest record this process appended, once committed: the chain must still hold it (#requireNotRolledBack). */
  #appended: ChainPoint | null = null;
  /** The chain's name in the seal key's register (chainRegisterName), read at the first append: undefined until then. */
  #registerName: string | null | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly target: DatabaseTarget,
    options: PostgresStoreOptions = {},
  ) {
    this.location = target.shown;
    this.#now = options.now ?? (() => new Date());
    this.#retryForMs = options.retryForMs ?? 30_000;
    this.#log = options.log ?? (() => {});
    this.#sealing = { key: options.sealKey ?? sealKeyFromFile(defaultSealKeyPath()) };
    this.windows = new SavedWindows(
      this.#sealing.key,
      () => this.#storeIdentity(),
      new WindowRows(pool),
      (what, error) => this.#log(`guard store ${this.location}: ${what} (${this.target.redactError(error).message})`),
    );
  }

  /** Read once: it never changes. */
  async #storeIdentity(): Promise<string | null> {
    this.#identity ??= await storeIdentity(this.pool);
    return this.#identity;
  }

  /** Rows of the audit chain read by the reservations' checks of the derived rows so far (tests and the bench: what the check costs). */
  get chainRowsRead(): number {
    return this.#window.rowsRead;
  }

  time(): Date {
    return this.#now();
  }

  async append(input: AuditInput): Promise<AuditRecord> {
    const key = randomUUID();
    const record = await this.#run("append", (attempt) =>
      inTransaction(this.pool, async (client) => {
        await lockChain(client);
        await this.#requireNotRolledBack(client);
        const sealing = await this.#sealingOn(client);
        return (attempt > 1 ? await appendedBefore(client, key) : null) ?? appendLocked(client, input, key, this.#now(), sealing);
      }),
    );
    return this.#remember(record);
  }

  async committedSince(query: CommittedQuery): Promise<bigint> {
    return this.#run("committedSince", () => committedIn(this.pool, query));
  }

  async prepareIntent(intent: PreparedIntent): Promise<void> {
    await this.#run("prepareIntent", () =>
      inTransaction(this.pool, async (client) => {
        const expires = new Date(intent.expires_at);
        const inserted = await client.query(
          "INSERT INTO custody_intents (nonce, fingerprint, operator, expires_at, sealed, " +
            "waiting_for) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (nonce) DO NOTHING",
          [
            intent.nonce,
            intent.fingerprint,
            intent.operator,
            expires,
            intent.sealed,
            intent.waiting_for === undefined ? null : waitingKey(intent.waiting_for.person),
          ],
        );
        // Already there: an earlier attempt committed, latest included (a newer dry run may have replaced it since).
        if (inserted.rowCount === 0) return;
        await client.query(
          "INSERT INTO custody_latest_intents (fingerprint, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT " +
            "(fingerprint) DO UPDATE SET nonce = EXCLUDED.nonce, expires_at = EXCLUDED.expires_at",
          [intent.fingerprint, intent.nonce, expires],
        );
        const now = this.#now();
        await client.query("DELETE FROM custody_intents WHERE nonce IN (SELECT nonce FROM custody_intents WHERE expires_at <= $1 LIMIT $2)", [
          now,
          EXPIRED_BATCH,
        ]);
        await client.query(
          "DELETE FROM custody_latest_intents WHERE fingerprint IN (SELECT fingerprint FROM custody_latest_intents WHERE expires_at <= $1 LIMIT $2)",
          [now, EXPIRED_BATCH],
        );
      }),
    );
  }

  async lookUpIntent(nonce: string): Promise<IntentStanding> {
    return this.#run("lookUpIntent", async () => {
      const { rows } = await this.pool.query<{
        sealed: string;
        redeemed: boolean;
        reference: string | null;
        latest: string | null;
        latest_expires_at: Date | null;
      }>(
        `SELECT i.sealed, i.redeemed_by IS NOT NULL AS redeemed, i.reference, l.nonce AS latest, l.expires_at AS latest_expires_at
           FROM custody_intents i LEFT JOIN custody_latest_intents l ON l.fingerprint = i.fingerprint WHERE i.nonce = $1`,
        [nonce],
      );
      const intent = rows[0];
      if (intent === undefined) return { outcome: "unknown" };
      if (intent.redeemed) return { outcome: "reused", reference: intent.reference };
      if (intent.latest !== null && intent.latest !== nonce) return { outcome: "superseded", by_expires_at: (intent.latest_expires_at as Date).getTime() };
      return { outcome: "open", sealed: intent.sealed };
    });
  }

  async waitingIntents(query: WaitingFor, limit: number): Promise<WaitingIntent[]> {
    return this.#run("waitingIntents", async () => {
      const { rows } = await this.pool.query<{ nonce: string; expires_at: Date; sealed: string }>(
        `SELECT i.nonce, i.expires_at, i.sealed
           FROM custody_intents i LEFT JOIN custody_latest_intents l ON l.fingerprint = i.fingerprint
          WHERE i.operator = $1 AND i.waiting_for = $2 AND i.redeemed_by IS NULL AND i.expires_at > $3 AND (l.nonce IS NULL OR l.nonce = i.nonce)
          ORDER BY i.expires_at LIMIT $4`,
        [query.operator, waitingKey(query.person), this.#now(), limit],
      );
      return rows.map((row) => ({ nonce: row.nonce, expires_at: row.expires_at.getTime(), sealed: row.sealed }));
    });
  }

  async redeemIntent(nonce: string): Promise<Redemption> {
    const redemption = randomUUID();
    return this.#run("redeemIntent", () =>
      inTransaction(this.pool, async (client): Promise<Redemption> => {
        const { rows } = await client.query<{ fingerprint: string; sealed: string; redeemed_by: string | null; reference: string | null }>(
          "SELECT fingerprint, sealed, redeemed_by, reference FROM custody_intents WHERE nonce = $1 FOR UPDATE",
          [nonce],
        );
        const intent = rows[0];
        if (intent === undefined) return { outcome: "unknown" };
        if (intent.redeemed_by === redemption) return { outcome: "redeemed", sealed: intent.sealed };
        if (intent.redeemed_by !== null) return { outcome: "reused", reference: intent.reference };
        const latest = (
          await client.query<{ nonce: string; expires_at: Date }>("SELECT nonce, expires_at FROM custody_latest_intents WHERE fingerprint = $1 FOR SHARE", [
            intent.fingerprint,
          ])
        ).rows[0];
        if (latest !== undefined && latest.nonce !== nonce) return { outcome: "superseded", by_expires_at: latest.expires_at.getTime() };
        await client.query("UPDATE custody_intents SET redeemed_by = $2 WHERE nonce = $1", [nonce, redemption]);
        return { outcome: "redeemed", sealed: intent.sealed };
      }),
    );
  }

  async linkNonce(nonce: string, reference: string): Promise<void> {
    await this.#run("linkNonce", () =>
      this.pool.query("UPDATE custody_intents SET reference = $2 WHERE nonce = $1 AND redeemed_by IS NOT NULL", [nonce, reference]),
    );
  }

  async recentWrites(query: { operator: string; fingerprint: string; since: Date }): Promise<WriteTrace[]> {
    return this.#run("recentWrites", () => tracesSince(this.pool, query));
  }

  async writeByReference(reference: string, since?: Date): Promise<WriteTrace | null> {
    return this.#run("writeByReference", async () => {
      const { rows } =
        since === undefined
          ? await this.pool.query<TraceRow>("SELECT * FROM custody_write_traces WHERE reference = $1", [reference])
          : await this.pool.query<TraceRow>("SELECT * FROM custody_write_traces WHERE reference = $1 AND reserved_at >= $2", [reference, since]);
      return rows[0] === undefined ? null : traceFromRow(rows[0]);
    });
  }

  async unansweredWrites(query: UnansweredQuery, limit: number): Promise<WriteTrace[]> {
    return this.#run("unansweredWrites", async () => {
      const { rows } = await this.pool.query<TraceRow>(
        "SELECT * FROM custody_write_traces WHERE operator = $1 AND reserved_at >= $2 AND reserved_at <= $4 AND " +
          "transaction_id IS NULL AND status IN ('in_flight', 'uncertain') AND NOT given_up AND " +
          "recognition IS NOT NULL\n" +
          "         ORDER BY reserved_at DESC LIMIT $3",
        [query.operator, query.since, limit, query.sentBy ?? "infinity"],
      );
      return rows.map(traceFromRow).filter((trace) => trace.recognition !== undefined);
    });
  }

  async doubtfulWrites(query: DoubtfulQuery, limit: number): Promise<DoubtfulWrites> {
    return this.#run("doubtfulWrites", async () => {
      const { rows } = await this.pool.query<TraceRow>(
        `SELECT * FROM custody_write_traces WHERE operator = $1 AND reserved_at <= $3
           AND (answer_lost_at IS NOT NULL OR concluded_at IS NOT NULL OR (transaction_id IS NULL AND status = 'in_flight'))
           AND (reserved_at >= $2 OR (transaction_id IS NULL AND status <> 'not_applied') OR concluded_at BETWEEN $2 AND $3)
         ORDER BY reserved_at DESC LIMIT $4`,
        [query.operator, query.since, query.until, limit + 1],
      );
      return { writes: rows.slice(0, limit).map(traceFromRow), complete: rows.length <= limit };
    });
  }

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    const key = randomUUID();
    const result = await this.#run("reserve", (attempt) =>
      inTransaction(this.pool, async (client): Promise<ReservationResult> => {
        await lockChain(client);
        await this.#requireNotRolledBack(client);
        const sealing = await this.#sealingOn(client);
        const earlierAttempt = attempt > 1 ? await appendedBefore(client, key) : null;
        if (earlierAttempt !== null) return { reserved: true, record: earlierAttempt };
        const since = request.duplicatesSince;
        const intent = { operator: request.operator, fingerprint: request.fingerprint, since };
        const traces = await tracesSince(client, intent);
        const earlier = standingDuplicate(traces, since, request.repeatOf);
        if (earlier !== null) return { reserved: false, reason: "duplicate", earlier };
        const committed: bigint[] = [];
        for (const limit of request.limits) {
          committed.push(await committedIn(client, limit));
          const finding = limit.check(committed.at(-1) as bigint);
          if (finding !== null && finding.severity === "block") return { reserved: false, reason: "daily_limit", finding };
        }
        // The rows allowed it: they must be what the sealed chain says, or a DELETE of them reset the limit or the duplicate check.
        // The window this process checked before, with only the records appended since read (CheckedWindow).
        const window = await this.#window.since(client, new Date(Math.min(since.getTime(), ...request.limits.map((limit) => limit.since.getTime()))));
        requireTracesAgree(window, intent, traces);
        request.limits.forEach((limit, index) => requireCommittedAgrees(window, limit, committed[index] as bigint));
        const record = await appendLocked(client, request.record, key, this.#now(), sealing);
        this.#window.requireContinuedBy(window, record);
        return { reserved: true, record };
      }),
    );
    if (result.reserved) this.#remember(result.record);
    return result;
  }

  /**
   * The chain still holds the newest record this process appended: someone who can edit the rows can put back an earlier
   * state of the chain with the seal row it had then (the MAC covers a record, not when), taking the day's later records
   * out of the limits with the derived rows. A process that appended one of them refuses; a fresh one is told by the seal
   * key's register of this machine, where it keeps one (requireSealedChain; see docs/guard-decisions.md). One row by its number.
   */
  async #requireNotRolledBack(client: PoolClient): Promise<void> {
    const appended = this.#appended;
    if (appended === null) return;
    const { rows } = await client.query<{ hash: string }>("SELECT hash FROM custody_audit WHERE seq = $1", [appended.seq]);
    if (rows[0]?.hash === appended.hash) return;
    throw new AuditSealError(
      `the audit chain no longer holds record ${appended.seq} (hash ${appended.hash.slice(0, 12)}…), which this process appended: ` +
        `it was put back to an earlier state with its seal, or cut and resealed; ${resealHint("--store <the database>")}, and restart the guard's processes`,
    );
  }

  /** How this process's appends seal the chain: checked against the key's register too, by the chain's name read once. */
  async #sealingOn(client: PoolClient): Promise<ChainSealing> {
    if (this.#registerName === undefined) this.#registerName = await chainRegisterName(client, this.#sealing.key);
    return { ...this.#sealing, register: this.#registerName };
  }

  /**
   * Remembers a committed record of this process's (the newest by number), and registers it with the seal key: after
   * its commit, so the register is never ahead of the database. Another replica of this machine registering an earlier
   * record after it puts the register behind, which says less, never something false.
   */
  #remember(record: AuditRecord): AuditRecord {
    if (this.#appended !== null && record.seq <= this.#appended.seq) return record;
    this.#appended = { seq: record.seq, hash: record.hash };
    registerChainSeal(this.#sealing.key, this.#registerName ?? null, this.#appended);
    return record;
  }

  async close(): Promise<void> {
    await this.windows.settled();
    await this.pool.end();
  }

  /** Runs an operation through lost connections; whatever fails at last is thrown with the password masked. */
  async #run<T>(operation: string, work: (attempt: number) => Promise<T>): Promise<T> {
    try {
      return await withRetry(work, {
        retryForMs: this.#retryForMs,
        onRetry: (error, attempt) =>
          this.#log(`guard store ${this.location}: ${operation} attempt ${attempt} failed (${this.target.redactError(error).message}); trying again`),
      });
    } catch (error) {
      throw this.target.redactError(error, `guard store ${this.location}: ${operation} failed: `);
    }
  }
}

async function committedIn(db: Queryable, query: CommittedQuery): Promise<bigint> {
  const { scope } = query;
  const [where, value] =
    scope.kind === "operator" ? ["operator = $3 AND ", scope.operator] : scope.kind === "person" ? ["person = $3 AND ", scope.subject] : ["team AND ", null];
  const { rows } = await db.query<{ total: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS total FROM custody_commitments WHERE ${where}currency = $1 AND last_at >= $2`,
    value === null ? [query.currency, query.since] : [query.currency, query.since, value],
  );
  return BigInt(rows[0]?.total ?? "0");
}

async function tracesSince(db: Queryable, query: { operator: string; fingerprint: string; since: Date }): Promise<WriteTrace[]> {
  const { rows } = await db.query<TraceRow>(
    "SELECT * FROM custody_write_traces WHERE operator = $1 AND fingerprint = $2 AND reserved_at >= $3 ORDER BY reserved_at DESC",
    [query.operator, query.fingerprint, query.since],
  );
  return rows.map(traceFromRow);
}
