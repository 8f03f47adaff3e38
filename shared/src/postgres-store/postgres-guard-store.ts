import { randomUUID } from "node:crypto";
import type { Sql, TransactionSql } from "postgres";
import type { AuditInput, AuditRecord } from "../audit/audit-entry.js";
import type { GuardStore, PreparedIntent, Redemption, ReservationRequest, ReservationResult, WriteTrace } from "../guard-store/guard-store.js";
import { standingDuplicate } from "../guard-store/write-traces.js";
import { appendedBefore, appendLocked, lockChain } from "./chain-append.js";
import type { DatabaseTarget } from "./database-url.js";
import { traceFromRow, type TraceRow } from "./trace-rows.js";
import { withRetry } from "./transient-errors.js";

/** Expired intents removed by each new dry run: the tables stay small without a sweep reading them whole. */
const EXPIRED_BATCH = 100;

export interface PostgresStoreOptions {
  /** The store's clock (records' times, the windows' ends). */
  now?: () => Date;
  /** How long an operation keeps trying through lost connections (a database restart) before failing. */
  retryForMs?: number;
  /** Told when an operation is tried again (the message already redacted). */
  log?: (line: string) => void;
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

  constructor(
    private readonly sql: Sql,
    private readonly target: DatabaseTarget,
    options: PostgresStoreOptions = {},
  ) {
    this.location = target.shown;
    this.#now = options.now ?? (() => new Date());
    this.#retryForMs = options.retryForMs ?? 30_000;
    this.#log = options.log ?? (() => {});
  }

  time(): Date {
    return this.#now();
  }

  async append(input: AuditInput): Promise<AuditRecord> {
    const key = randomUUID();
    return this.#run("append", (attempt) =>
      this.sql.begin(async (tx) => {
        await lockChain(tx);
        return (attempt > 1 ? await appendedBefore(tx, key) : null) ?? appendLocked(tx, input, key, this.#now());
      }),
    );
  }

  async committedSince(query: { operator: string; currency: string; since: Date }): Promise<bigint> {
    return this.#run("committedSince", () => committedIn(this.sql, query));
  }

  async prepareIntent(intent: PreparedIntent): Promise<void> {
    await this.#run("prepareIntent", () =>
      this.sql.begin(async (tx) => {
        const inserted = await tx`INSERT INTO custody_intents (nonce, fingerprint, operator, expires_at, sealed)
          VALUES (${intent.nonce}, ${intent.fingerprint}, ${intent.operator}, ${new Date(intent.expires_at)}, ${intent.sealed})
          ON CONFLICT (nonce) DO NOTHING RETURNING nonce`;
        // Already there: an earlier attempt committed, latest included (a newer dry run may have replaced it since).
        if (inserted.length === 0) return;
        await tx`INSERT INTO custody_latest_intents (fingerprint, nonce, expires_at) VALUES (${intent.fingerprint}, ${intent.nonce}, ${new Date(intent.expires_at)})
          ON CONFLICT (fingerprint) DO UPDATE SET nonce = EXCLUDED.nonce, expires_at = EXCLUDED.expires_at`;
        const now = this.#now();
        await tx`DELETE FROM custody_intents WHERE nonce IN (SELECT nonce FROM custody_intents WHERE expires_at <= ${now} LIMIT ${EXPIRED_BATCH})`;
        await tx`DELETE FROM custody_latest_intents WHERE fingerprint IN (SELECT fingerprint FROM custody_latest_intents WHERE expires_at <= ${now} LIMIT ${EXPIRED_BATCH})`;
      }),
    );
  }

  async redeemIntent(nonce: string): Promise<Redemption> {
    const redemption = randomUUID();
    return this.#run("redeemIntent", () =>
      this.sql.begin(async (tx): Promise<Redemption> => {
        const [intent] = await tx<{ fingerprint: string; sealed: string; redeemed_by: string | null; reference: string | null }[]>`
          SELECT fingerprint, sealed, redeemed_by, reference FROM custody_intents WHERE nonce = ${nonce} FOR UPDATE`;
        if (intent === undefined) return { outcome: "unknown" };
        if (intent.redeemed_by === redemption) return { outcome: "redeemed", sealed: intent.sealed };
        if (intent.redeemed_by !== null) return { outcome: "reused", reference: intent.reference };
        const [latest] = await tx<{ nonce: string; expires_at: Date }[]>`
          SELECT nonce, expires_at FROM custody_latest_intents WHERE fingerprint = ${intent.fingerprint} FOR SHARE`;
        if (latest !== undefined && latest.nonce !== nonce) return { outcome: "superseded", by_expires_at: latest.expires_at.getTime() };
        await tx`UPDATE custody_intents SET redeemed_by = ${redemption} WHERE nonce = ${nonce}`;
        return { outcome: "redeemed", sealed: intent.sealed };
      }),
    );
  }

  async linkNonce(nonce: string, reference: string): Promise<void> {
    await this.#run("linkNonce", () => this.sql`UPDATE custody_intents SET reference = ${reference} WHERE nonce = ${nonce} AND redeemed_by IS NOT NULL`);
  }

  async recentWrites(query: { operator: string; fingerprint: string; since: Date }): Promise<WriteTrace[]> {
    return this.#run("recentWrites", () => tracesSince(this.sql, query));
  }

  async writeByReference(reference: string): Promise<WriteTrace | null> {
    return this.#run("writeByReference", async () => {
      const [row] = await this.sql<TraceRow[]>`SELECT * FROM custody_write_traces WHERE reference = ${reference}`;
      return row === undefined ? null : traceFromRow(row);
    });
  }

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    const key = randomUUID();
    return this.#run("reserve", (attempt) =>
      this.sql.begin(async (tx): Promise<ReservationResult> => {
        await lockChain(tx);
        const earlierAttempt = attempt > 1 ? await appendedBefore(tx, key) : null;
        if (earlierAttempt !== null) return { reserved: true, record: earlierAttempt };
        const since = request.duplicatesSince;
        const earlier = standingDuplicate(await tracesSince(tx, { operator: request.operator, fingerprint: request.fingerprint, since }), since, request.repeatOf);
        if (earlier !== null) return { reserved: false, reason: "duplicate", earlier };
        if (request.limit !== null) {
          const spent = await committedIn(tx, { operator: request.operator, currency: request.limit.currency, since: request.limit.since });
          const finding = request.limit.check(spent);
          if (finding !== null && finding.severity === "block") return { reserved: false, reason: "daily_limit", finding };
        }
        return { reserved: true, record: await appendLocked(tx, request.record, key, this.#now()) };
      }),
    );
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }

  /** Runs an operation through lost connections; whatever fails at last is thrown with the password masked. */
  async #run<T>(operation: string, work: (attempt: number) => Promise<T>): Promise<T> {
    try {
      return await withRetry(work, {
        retryForMs: this.#retryForMs,
        onRetry: (error, attempt) => this.#log(`guard store ${this.location}: ${operation} attempt ${attempt} failed (${this.target.redactError(error).message}); trying again`),
      });
    } catch (error) {
      throw this.target.redactError(error, `guard store ${this.location}: ${operation} failed: `);
    }
  }
}

async function committedIn(sql: Sql | TransactionSql, query: { operator: string; currency: string; since: Date }): Promise<bigint> {
  const [row] = await sql<{ total: string }[]>`SELECT coalesce(sum(amount), 0)::text AS total FROM custody_commitments
    WHERE operator = ${query.operator} AND currency = ${query.currency} AND last_at >= ${query.since}`;
  return BigInt(row?.total ?? "0");
}

async function tracesSince(sql: Sql | TransactionSql, query: { operator: string; fingerprint: string; since: Date }): Promise<WriteTrace[]> {
  const rows = await sql<TraceRow[]>`SELECT * FROM custody_write_traces
    WHERE operator = ${query.operator} AND fingerprint = ${query.fingerprint} AND reserved_at >= ${query.since} ORDER BY reserved_at DESC`;
  return rows.map(traceFromRow);
}
