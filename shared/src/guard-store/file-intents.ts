import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { PreparedIntent, Redemption } from "./guard-store.js";

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
 * The file of the dry runs that can still be confirmed and the nonces used, beside the audit log
 * (`<log>.intents.json`). Small: entries leave it when their token expires. Every method is
 * called holding the log's lock.
 */
export class FileIntents {
  constructor(
    private readonly path: string,
    private readonly now: () => Date,
  ) {}

  prepare(intent: PreparedIntent): void {
    this.#change((state) => {
      state.prepared[intent.nonce] = { fingerprint: intent.fingerprint, expires_at: intent.expires_at, sealed: intent.sealed };
      state.latest[intent.fingerprint] = { nonce: intent.nonce, expires_at: intent.expires_at };
    });
  }

  redeem(nonce: string): Redemption {
    return this.#change((state): Redemption => {
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

  link(nonce: string, reference: string): void {
    this.#change((state) => {
      const used = state.used[nonce];
      if (used !== undefined) used.reference = reference;
    });
  }

  /** Reads, changes and writes back the file, dropping what has expired. */
  #change<T>(change: (state: IntentState) => T): T {
    const state = this.#read();
    const result = change(state);
    const now = this.now().getTime();
    for (const [key, entry] of Object.entries(state.prepared)) if (entry.expires_at <= now) delete state.prepared[key];
    for (const [key, entry] of Object.entries(state.latest)) if (entry.expires_at <= now) delete state.latest[key];
    for (const [key, entry] of Object.entries(state.used)) if (entry.expires_at <= now) delete state.used[key];
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, JSON.stringify(state));
    const fd = openSync(temporary, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
    return result;
  }

  #read(): IntentState {
    if (!existsSync(this.path)) return { prepared: {}, latest: {}, used: {} };
    const parsed = IntentState.safeParse(JSON.parse(readFileSync(this.path, "utf8")));
    if (!parsed.success) throw new Error(`${this.path}: not a guard intents file; refusing to use it`);
    return parsed.data;
  }
}
