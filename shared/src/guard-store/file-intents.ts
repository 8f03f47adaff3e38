import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isRefusedFile, readOwnText } from "../files/own-file.js";
import { replaceWhole } from "../files/whole-file.js";
import { z } from "zod";
import type { IntentStanding, PreparedIntent, Redemption, WaitingFor, WaitingIntent } from "./guard-store.js";

/** `waiting`: the name of its waiting marker, removed when it is used. */
const Prepared = z.object({ fingerprint: z.string(), expires_at: z.number(), sealed: z.string(), waiting: z.string().optional() });
const Used = z.object({ expires_at: z.number(), reference: z.string().nullable() });
const Latest = z.object({ nonce: z.string(), expires_at: z.number() });

/** A nonce is a file name here: the road's are 32 hex digits; anything else is never one this store prepared. */
const NONCE = /^[A-Za-z0-9_-]{1,128}$/;
/** A waiting marker's name, as the store writes it (a prepared entry's `waiting` is checked before it names a file). */
const WAITING_MARKER = /^[0-9a-f]{64}\.[A-Za-z0-9_-]{1,128}$/;
/** An entry is a few hundred bytes and its sealed dry run (held within the road's limits); a longer file is not one this store wrote. */
export const ENTRY_MAX_BYTES = 1024 * 1024;
/** Entries expire into buckets of this width; each change removes the buckets wholly past. */
const BUCKET_MS = 60_000;

type Kind = "prepared" | "used" | "latest" | "waiting";

/** An entry file that is not an entry (cut short by a power loss, or not JSON). */
const UNREADABLE = Symbol("unreadable intent entry");

/**
 * The dry runs that can still be confirmed and the nonces used, one small file each in
 * `<log>.intents/` (prepared/<nonce>, used/<nonce>, latest/<sha256 of the fingerprint>, and for a
 * dry run waiting for its person waiting/<sha256 of operator and person>.<nonce>, empty): a dry run
 * or a confirmation writes and reads only its own files, so its cost does not grow with the dry
 * runs left open. Each entry is also marked in expiry/<minute it expires>/, and every change
 * removes the minutes wholly past: what has expired is removed once, never by reading the rest.
 * Until then an expired entry is still found, as the database store finds it: the road refuses an
 * expired dry run naming its expiry. Every method is called holding the log's lock.
 */
export class FileIntents {
  constructor(
    private readonly dir: string,
    private readonly now: () => Date,
  ) {
    for (const kind of ["prepared", "used", "latest", "waiting", "expiry"]) mkdirSync(join(dir, kind), { recursive: true });
  }

  prepare(intent: PreparedIntent): void {
    if (!NONCE.test(intent.nonce)) throw new Error(`intent nonce: must be 1 to 128 letters, digits, '-' or '_' (it names a file)`);
    this.#sweep();
    const waiting = intent.waiting_for === undefined ? undefined : waitingName({ operator: intent.operator, ...intent.waiting_for }, intent.nonce);
    this.#put(
      "prepared",
      intent.nonce,
      { fingerprint: intent.fingerprint, expires_at: intent.expires_at, sealed: intent.sealed, ...(waiting === undefined ? {} : { waiting }) },
      intent.expires_at,
    );
    this.#put("latest", fingerprintName(intent.fingerprint), { nonce: intent.nonce, expires_at: intent.expires_at }, intent.expires_at);
    if (waiting !== undefined) this.#mark(waiting, intent.expires_at);
  }

  get waitingDirectory(): string {
    return join(this.dir, "waiting");
  }

  /** The person's waiting dry runs: only their own markers are read (the waiting ones, removed once used or expired), each looked up like a confirmation. */
  waiting(query: WaitingFor, limit: number): WaitingIntent[] {
    this.#sweep();
    const prefix = waitingName(query, "");
    const now = this.now().getTime();
    const found: WaitingIntent[] = [];
    for (const marker of readdirSync(join(this.dir, "waiting"))) {
      if (!marker.startsWith(prefix)) continue;
      const nonce = marker.slice(prefix.length);
      const standing = this.#find(nonce);
      if (standing.outcome !== "open") {
        // Used or superseded: it no longer waits.
        rmSync(this.#file("waiting", marker), { force: true });
        continue;
      }
      if (standing.prepared.expires_at > now) found.push({ nonce, expires_at: standing.prepared.expires_at, sealed: standing.prepared.sealed });
    }
    return found.sort((a, b) => a.expires_at - b.expires_at).slice(0, limit);
  }

  lookUp(nonce: string): IntentStanding {
    const found = this.#find(nonce);
    return found.outcome === "open" ? { outcome: "open", sealed: found.prepared.sealed } : found;
  }

  redeem(nonce: string): Redemption {
    const found = this.#find(nonce);
    if (found.outcome !== "open") return found;
    const { expires_at: expiresAt, sealed, waiting } = found.prepared;
    this.#put("used", nonce, { expires_at: expiresAt, reference: null }, expiresAt);
    rmSync(this.#file("prepared", nonce), { force: true });
    if (waiting !== undefined && WAITING_MARKER.test(waiting)) rmSync(this.#file("waiting", waiting), { force: true });
    return { outcome: "redeemed", sealed };
  }

  #find(nonce: string): { outcome: "open"; prepared: z.infer<typeof Prepared> } | Exclude<IntentStanding, { outcome: "open" }> {
    if (!NONCE.test(nonce)) return { outcome: "unknown" };
    this.#sweep();
    // A used entry that cannot be read still counts as used: a nonce is never redeemed twice.
    const used = this.#get("used", nonce, Used);
    if (used !== null) return { outcome: "reused", reference: used === UNREADABLE ? null : used.reference };
    const prepared = this.#get("prepared", nonce, Prepared);
    if (prepared === null || prepared === UNREADABLE) return { outcome: "unknown" };
    const latest = this.#get("latest", fingerprintName(prepared.fingerprint), Latest);
    // One that cannot be read cannot show this nonce is the newest of its intent: refused as unknown (a new dry run writes it again).
    if (latest === UNREADABLE) return { outcome: "unknown" };
    if (latest !== null && latest.nonce !== nonce) return { outcome: "superseded", by_expires_at: latest.expires_at };
    return { outcome: "open", prepared };
  }

  link(nonce: string, reference: string): void {
    if (!NONCE.test(nonce)) return;
    const used = this.#get("used", nonce, Used);
    // An unreadable one is left as it is: it still counts as used, and its expiry is unknown.
    if (used !== null && used !== UNREADABLE) this.#put("used", nonce, { ...used, reference }, used.expires_at);
  }

  #file(kind: Kind, name: string): string {
    return join(this.dir, kind, name);
  }

  /**
   * The entry, or null when there is none; one expired but not yet swept is returned (the road names
   * an expired dry run as such). One that is not an entry (a prepared or latest entry is not synced:
   * a power loss can leave it empty) is UNREADABLE, for the caller to decide, never an exception
   * that would stop every dry run and confirmation; nor is what the store never writes there (a link, a pipe, a device, a
   * file too long), which is not read.
   */
  #get<T extends { expires_at: number }>(kind: Kind, name: string, schema: z.ZodType<T>): T | typeof UNREADABLE | null {
    let raw: unknown;
    try {
      const text = readOwnText(this.#file(kind, name), { what: `intent entry ${kind}`, maxBytes: ENTRY_MAX_BYTES });
      if (text === null) return null;
      if (isRefusedFile(text)) return UNREADABLE;
      raw = JSON.parse(text);
    } catch (error) {
      if (error instanceof SyntaxError) return UNREADABLE;
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    const parsed = schema.safeParse(raw);
    return parsed.success ? parsed.data : UNREADABLE;
  }

  /**
   * Writes the entry whole (renamed over the old one) and marks it in its expiry bucket. Only a
   * `used` entry is synced before the rename: a nonce used must stay used through a power loss;
   * a prepared or latest entry lost with one only makes its confirmation refused (a new dry run).
   */
  #put(kind: Kind, name: string, entry: object, expiresAt: number): void {
    this.#expireWith(kind, name, expiresAt);
    replaceWhole(this.#file(kind, name), JSON.stringify(entry), { sync: kind === "used" });
  }

  /** An empty entry (a waiting marker), marked in its expiry bucket; both replaced whole (see #expireWith). */
  #mark(name: string, expiresAt: number): void {
    this.#expireWith("waiting", name, expiresAt);
    replaceWhole(this.#file("waiting", name), "");
  }

  #expireWith(kind: Kind, name: string, expiresAt: number): void {
    const bucket = join(this.dir, "expiry", String(Math.floor(expiresAt / BUCKET_MS)));
    mkdirSync(bucket, { recursive: true });
    // Replaced, not opened for writing: a pipe put at its name would block the open until a reader came.
    replaceWhole(join(bucket, `${kind}.${name}`), "");
  }

  /** Removes the entries of every bucket wholly past (a `latest` entry only if it was not renewed into a later bucket). */
  #sweep(): void {
    const current = Math.floor(this.now().getTime() / BUCKET_MS);
    for (const bucket of readdirSync(join(this.dir, "expiry"))) {
      if (!(Number(bucket) < current)) continue;
      const bucketDir = join(this.dir, "expiry", bucket);
      for (const marker of readdirSync(bucketDir)) {
        const dot = marker.indexOf(".");
        const kind = marker.slice(0, dot) as Kind;
        const name = marker.slice(dot + 1);
        // An unreadable latest entry is taken as expired and removed.
        const latest = kind === "latest" ? this.#get("latest", name, Latest) : null;
        if (latest !== null && latest !== UNREADABLE && latest.expires_at > this.now().getTime()) continue;
        rmSync(this.#file(kind, name), { force: true });
      }
      rmSync(bucketDir, { recursive: true, force: true });
    }
  }
}

/** A waiting marker's name: its person's prefix (operator and person hashed: a subject is anyone's text), then the nonce. */
function waitingName(query: WaitingFor, nonce: string): string {
  return `${createHash("sha256")
    .update(JSON.stringify([query.operator, query.person]))
    .digest("hex")}.${nonce}`;
}

function fingerprintName(fingerprint: string): string {
  return createHash("sha256").update(fingerprint).digest("hex");
}
