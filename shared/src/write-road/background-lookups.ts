import { setTimeout as sleep } from "node:timers/promises";
import type { CustodyClient } from "../client/custody-client.js";
import type { PersonOnRecord } from "../identity/person.js";
import type { Transaction } from "../schemas/transaction.js";
import { lookUpLostAnswer, type LookupResult, type UnansweredWrite } from "./lost-answer-lookup.js";

/** What a background look-up concluded. */
export type LookupConclusion = { found: true; transaction: Transaction } | { found: false; lookedForMs: number };

/** A write being looked up: what the store keeps of it, its tool and who its records name. */
export interface WatchedWrite extends UnansweredWrite {
  tool: string;
  person: PersonOnRecord | null;
}

export interface BackgroundLookupOptions {
  /** How long to keep looking after the write was sent: longer than the service's own processing could take. */
  horizonMs: number;
  /** The first pause; each next one doubles. */
  firstDelayMs?: number;
  /** Called once per watched write with what became of it (found, or not found within the horizon). */
  conclude(write: WatchedWrite, conclusion: LookupConclusion): Promise<void>;
  /** Called after each look-up that did not find it (what it found, or null when it could not read), before the next. */
  lookedUp?(write: WatchedWrite, result: Exclude<LookupResult, { found: "one" }> | null): Promise<void>;
}

/**
 * Keeps looking up writes whose answer was lost, backing off, until one is found or the horizon
 * passes: a POST that reached the service late lands after the client gave up, and must then be
 * seen and recorded, never taken as absent. A write resumed from the store (its sender stopped)
 * is looked up at once, and its horizon counts from when it was sent. Timers do not keep the
 * process alive.
 */
export class BackgroundLookups {
  readonly #running = new Map<string, Promise<void>>();
  readonly #stopped = new AbortController();

  constructor(
    private readonly client: CustodyClient,
    private readonly options: BackgroundLookupOptions,
  ) {}

  /**
   * Starts watching a write by its reference (sent at `sentAt`, ms); a write already watched is not watched twice.
   * Resolves when this watch of it ends.
   */
  watch(write: WatchedWrite, resumed: { sentAt: number } | null = null): Promise<void> {
    const running = this.#running.get(write.reference);
    if (running !== undefined) return running;
    if (this.#stopped.signal.aborted) return Promise.resolve();
    const run = this.#lookUntilFound(write, resumed).finally(() => this.#running.delete(write.reference));
    this.#running.set(write.reference, run);
    return run;
  }

  /** Whether a write is still being looked up. */
  watching(reference: string): boolean {
    return this.#running.has(reference);
  }

  /** Resolves when every look-up under way has concluded (for a graceful stop and for tests). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  /** Ends every look-up at its next step, recording nothing more (the store is about to close): the next process to open it resumes them. */
  stop(): void {
    this.#stopped.abort();
  }

  async #lookUntilFound(write: WatchedWrite, resumed: { sentAt: number } | null): Promise<void> {
    const started = resumed?.sentAt ?? Date.now();
    const left = () => this.options.horizonMs - (Date.now() - started);
    let delay = this.options.firstDelayMs ?? 1000;
    let first = resumed !== null;
    let read = false;
    const stopped = this.#stopped.signal;
    while (first || left() > 0) {
      if (!first) await pause(Math.min(delay, Math.max(0, left())), stopped);
      first = false;
      delay *= 2;
      let result: LookupResult | null = null;
      try {
        if (!stopped.aborted) result = await lookUpLostAnswer(this.client, write, stopped);
      } catch {
        // A failed look-up is tried again at the next step; the write stays uncertain meanwhile.
      }
      if (stopped.aborted) return;
      read ||= result !== null;
      if (result?.found === "one") {
        await this.options.conclude(write, { found: true, transaction: result.transaction });
        return;
      }
      await this.options.lookedUp?.(write, result);
    }
    // A resumed write none of whose look-ups could read the service is not given up on: the next sweep or start looks again.
    if (stopped.aborted || (resumed !== null && !read)) return;
    await this.options.conclude(write, { found: false, lookedForMs: Date.now() - started });
  }
}

/** Resolves after `ms`, or at once when `stopped` fires. */
async function pause(ms: number, stopped: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { ref: false, signal: stopped }).catch(() => undefined);
}
