import { existsSync, readFileSync, renameSync, writeFileSync, fsyncSync, openSync, closeSync } from "node:fs";
import { AuditLog } from "../audit/audit-log.js";
import { AuditRecord, type AuditInput } from "../audit/audit-entry.js";
import { committedSince } from "../audit/committed-amounts.js";
import { withFileLock } from "../audit/file-lock.js";
import type { GuardStore, PreparedIntent, Redemption, ReservationRequest, ReservationResult, WriteTrace } from "./guard-store.js";
import { foldTrace, standingDuplicate } from "./write-traces.js";
import { z } from "zod";

const IntentState = z.object({
  /** Prepared intents by nonce, until they expire. */
  prepared: z.record(z.string(), z.object({ fingerprint: z.string(), expires_at: z.number(), sealed: z.string() })),
  /** The latest prepared nonce of each fingerprint. */
  latest: z.record(z.string(), z.object({ nonce: z.string(), expires_at: z.number() })),
  /** Redeemed nonces, kept until their token expires (a later redemption is refused by its expiry). */
  used: z.record(z.string(), z.object({ expires_at: z.number(), reference: z.string().nullable() })),
});
type IntentState = z.infer<typeof IntentState>;

/**
 * The embedded store, for one person: the JSONL audit log (the record a person and verify-audit
 * read) and, beside it, a small file of the dry runs that can still be confirmed and the nonces
 * used. Every change takes the log's lock, so several processes sharing the files keep its promises.
 */
export class FileGuardStore implements GuardStore {
  readonly location: string;
  readonly #log: AuditLog;
  readonly #intentsPath: string;
  readonly #lockPath: string;

  constructor(
    readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.location = path;
    this.#log = new AuditLog(path, now);
    this.#intentsPath = `${path}.intents.json`;
    this.#lockPath = `${path}.lock`;
  }

  time(): Date {
    return this.now();
  }

  async append(input: AuditInput) {
    return this.#log.append(input);
  }

  async committedSince(query: { operator: string; currency: string; since: Date }): Promise<bigint> {
    return committedSince(this.path, query);
  }

  async prepareIntent(intent: PreparedIntent): Promise<void> {
    this.#changeIntents((state) => {
      state.prepared[intent.nonce] = { fingerprint: intent.fingerprint, expires_at: intent.expires_at, sealed: intent.sealed };
      state.latest[intent.fingerprint] = { nonce: intent.nonce, expires_at: intent.expires_at };
    });
  }

  async redeemIntent(nonce: string): Promise<Redemption> {
    return this.#changeIntents((state): Redemption => {
      const used = state.used[nonce];
      if (used !== undefined) return { outcome: "reused", reference: used.reference };
      const prepared = state.prepared[nonce];
      if (prepared === undefined) return { outcome: "unknown" };
      const latest = state.latest[prepared.fingerprint];
      if (latest !== undefined && latest.nonce !== nonce) return { outcome: "superseded", by_expires_at: latest.expires_at };
      state.used[nonce] = { expires_at: prepared.expires_at, reference: null };
      delete state.prepared[nonce];
      return { outcome: "redeemed", sealed: prepared.sealed };
    });
  }

  async linkNonce(nonce: string, reference: string): Promise<void> {
    this.#changeIntents((state) => {
      const used = state.used[nonce];
      if (used !== undefined) used.reference = reference;
    });
  }

  async recentWrites(query: { operator: string; fingerprint: string; since: Date }): Promise<WriteTrace[]> {
    return [...this.#traces().values()]
      .filter((trace) => trace.operator === query.operator && trace.fingerprint === query.fingerprint && new Date(trace.reserved_at) >= query.since)
      .sort((a, b) => b.reserved_at.localeCompare(a.reserved_at));
  }

  async writeByReference(reference: string): Promise<WriteTrace | null> {
    return this.#traces().get(reference) ?? null;
  }

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    let refusal: ReservationResult | null = null;
    const record = this.#log.appendIf(request.record, () => {
      const traces = [...this.#traces().values()].filter((trace) => trace.operator === request.operator && trace.fingerprint === request.fingerprint);
      const earlier = standingDuplicate(traces, request.duplicatesSince, request.repeatOf);
      if (earlier !== null) {
        refusal = { reserved: false, reason: "duplicate", earlier };
        return false;
      }
      if (request.limit !== null) {
        const spent = committedSince(this.path, { operator: request.operator, currency: request.limit.currency, since: request.limit.since });
        const finding = request.limit.check(spent);
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

  async close(): Promise<void> {}

  #traces(): Map<string, WriteTrace> {
    const traces = new Map<string, WriteTrace>();
    if (!existsSync(this.path)) return traces;
    for (const line of readFileSync(this.path, "utf8").split("\n")) {
      if (line === "") continue;
      const parsed = AuditRecord.safeParse(JSON.parse(line));
      if (parsed.success) foldTrace(traces, parsed.data);
    }
    return traces;
  }

  /** Reads, changes and writes back the intents file under the log's lock, dropping what has expired. */
  #changeIntents<T>(change: (state: IntentState) => T): T {
    return withFileLock(this.#lockPath, () => {
      const state = this.#readIntents();
      const result = change(state);
      const now = this.now().getTime();
      for (const [key, entry] of Object.entries(state.prepared)) if (entry.expires_at <= now) delete state.prepared[key];
      for (const [key, entry] of Object.entries(state.latest)) if (entry.expires_at <= now) delete state.latest[key];
      for (const [key, entry] of Object.entries(state.used)) if (entry.expires_at <= now) delete state.used[key];
      const temporary = `${this.#intentsPath}.tmp`;
      writeFileSync(temporary, JSON.stringify(state));
      const fd = openSync(temporary, "r+");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.#intentsPath);
      return result;
    });
  }

  #readIntents(): IntentState {
    if (!existsSync(this.#intentsPath)) return { prepared: {}, latest: {}, used: {} };
    const parsed = IntentState.safeParse(JSON.parse(readFileSync(this.#intentsPath, "utf8")));
    if (!parsed.success) throw new Error(`${this.#intentsPath}: not a guard intents file; refusing to use it`);
    return parsed.data;
  }
}
