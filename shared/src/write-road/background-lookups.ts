import type { CustodyClient } from "../client/custody-client.js";
import type { Transaction } from "../schemas/transaction.js";
import { lookUpLostAnswer } from "./lost-answer-lookup.js";
import type { PlannedWrite } from "./planned-write.js";

/** What a background look-up concluded. */
export type LookupConclusion = { found: true; transaction: Transaction } | { found: false; lookedForMs: number };

export interface BackgroundLookupOptions {
  /** How long to keep looking: at least twice the request timeout, longer than the service's own processing could take. */
  horizonMs: number;
  /** The first pause; each next one doubles. */
  firstDelayMs?: number;
  /** Called once per watched write with what became of it (found, or not found within the horizon). */
  conclude(plan: PlannedWrite, conclusion: LookupConclusion): Promise<void>;
}

/**
 * Keeps looking up writes whose answer was lost, backing off, until one is found or the horizon
 * passes: a POST that reached the service late lands after the client gave up, and must then be
 * seen and recorded, never taken as absent. Timers do not keep the process alive.
 */
export class BackgroundLookups {
  readonly #running = new Map<string, Promise<void>>();

  constructor(
    private readonly client: CustodyClient,
    private readonly options: BackgroundLookupOptions,
  ) {}

  /** Starts watching a write by its reference; a write already watched is not watched twice. */
  watch(plan: PlannedWrite, watermark: number | null): void {
    if (this.#running.has(plan.correlation_id)) return;
    const run = this.#lookUntilFound(plan, watermark).finally(() => this.#running.delete(plan.correlation_id));
    this.#running.set(plan.correlation_id, run);
  }

  /** Whether a write is still being looked up. */
  watching(reference: string): boolean {
    return this.#running.has(reference);
  }

  /** Resolves when every look-up under way has concluded (for a graceful stop and for tests). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  async #lookUntilFound(plan: PlannedWrite, watermark: number | null): Promise<void> {
    const started = Date.now();
    let delay = this.options.firstDelayMs ?? 1000;
    while (Date.now() - started < this.options.horizonMs) {
      await pause(Math.min(delay, Math.max(0, this.options.horizonMs - (Date.now() - started))));
      delay *= 2;
      try {
        const result = await lookUpLostAnswer(this.client, plan, watermark);
        if (result.found === "one") {
          await this.options.conclude(plan, { found: true, transaction: result.transaction });
          return;
        }
      } catch {
        // A failed look-up is tried again at the next step; the write stays uncertain meanwhile.
      }
    }
    await this.options.conclude(plan, { found: false, lookedForMs: Date.now() - started });
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
