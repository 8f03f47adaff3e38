import { DEFAULT_WATCH_INTERVAL_SECONDS } from "../config/options.js";
import { MAX_WATCHED_RESOURCES } from "./subscription-limits.js";
import { errorMessage } from "@custody/shared";

export interface PollerOptions {
  /** What the resource is now, as text: a transaction's status, an account's balances. */
  read(uri: string, signal: AbortSignal): Promise<string>;
  /** Told when what a watched resource reads differs from the last reading. */
  changed(uri: string): void;
  log: (line: string) => void;
  intervalMs?: number;
  maxWatched?: number;
}

interface Watch {
  watchers: number;
  /** The last reading; undefined until the first. */
  seen: string | undefined;
  /** Why the last reading failed, while it does: the same failure again is not logged again. */
  failing: string | undefined;
  /** Settles once the first reading was tried. */
  first: Promise<void>;
}

/** A resource kept watched: `ready` settles once its first reading was tried (a change after it is a change); `release` ends the watch (once). */
export interface Watching {
  ready: Promise<void>;
  release(): void;
}

/**
 * Reads the resources someone is subscribed to, and only those, one after the other every
 * interval, telling `changed` when a reading differs from the one before. It runs while something
 * is watched and stops when nothing is; a reading that fails is tried again at the next pass.
 */
export class ResourcePoller {
  readonly #watched = new Map<string, Watch>();
  readonly #options: PollerOptions;
  readonly #intervalMs: number;
  readonly #max: number;
  #timer: NodeJS.Timeout | null = null;
  #passing = false;
  #closed = false;
  readonly #stop = new AbortController();

  constructor(options: PollerOptions) {
    this.#options = options;
    this.#intervalMs = options.intervalMs ?? DEFAULT_WATCH_INTERVAL_SECONDS * 1000;
    this.#max = options.maxWatched ?? MAX_WATCHED_RESOURCES;
  }

  get size(): number {
    return this.#watched.size;
  }

  /** Keeps `uri` read until released; null when as many resources as the poller may watch are watched. */
  watch(uri: string): Watching | null {
    let watch = this.#watched.get(uri);
    if (watch === undefined) {
      if (this.#watched.size >= this.#max || this.#closed) return null;
      const fresh: Watch = { watchers: 0, seen: undefined, failing: undefined, first: Promise.resolve() };
      // Its first reading now, so a change soon after the subscription is not taken for the starting state.
      fresh.first = this.#readOne(uri, fresh);
      this.#watched.set(uri, fresh);
      watch = fresh;
    }
    watch.watchers += 1;
    this.#schedule();
    let released = false;
    const own = watch;
    return {
      ready: own.first,
      release: () => {
        if (released) return;
        released = true;
        own.watchers -= 1;
        if (own.watchers === 0 && this.#watched.get(uri) === own) this.#watched.delete(uri);
      },
    };
  }

  close(): void {
    this.#closed = true;
    this.#stop.abort();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#watched.clear();
  }

  #schedule(): void {
    if (this.#timer !== null || this.#passing || this.#closed || this.#watched.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#pass();
    }, this.#intervalMs);
    this.#timer.unref();
  }

  async #pass(): Promise<void> {
    this.#passing = true;
    try {
      for (const [uri, watch] of [...this.#watched]) {
        if (this.#closed) return;
        if (this.#watched.get(uri) === watch) await this.#readOne(uri, watch);
      }
    } finally {
      this.#passing = false;
      this.#schedule();
    }
  }

  async #readOne(uri: string, watch: Watch): Promise<void> {
    let now: string;
    try {
      now = await this.#options.read(uri, AbortSignal.any([this.#stop.signal, AbortSignal.timeout(Math.max(this.#intervalMs, 5000))]));
    } catch (error) {
      const why = errorMessage(error);
      // Once per failure, not once per pass: a subscription to an account that does not exist would log every interval until it ends.
      if (!this.#closed && why !== watch.failing) this.#options.log(`watching ${uri}: could not read it (${why}); trying again at each pass`);
      watch.failing = why;
      return;
    }
    if (watch.failing !== undefined) this.#options.log(`watching ${uri}: read again`);
    watch.failing = undefined;
    const before = watch.seen;
    watch.seen = now;
    if (before !== undefined && before !== now && this.#watched.get(uri) === watch) this.#options.changed(uri);
  }
}
