import type { Drainable } from "./drainable.js";
import { IdleWaiters } from "./idle-waiters.js";

export const SHUTTING_DOWN = "custody-mcp is shutting down: this call was not run and nothing was sent";

/**
 * The tool calls under way in this process. A shutdown stops new ones and waits for these: a write
 * already sent must get its answer or its look-up, and its audit lines, even if its client went away.
 */
export class WorkInFlight implements Drainable {
  #running = 0;
  #accepting = true;
  readonly #idle = new IdleWaiters();

  get pending(): number {
    return this.#running;
  }

  /** Runs a call, unless the server is shutting down: then it throws and runs nothing. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#accepting) throw new Error(SHUTTING_DOWN);
    this.#running += 1;
    try {
      return await work();
    } finally {
      this.#running -= 1;
      this.#idle.update(this.#running);
    }
  }

  stopAccepting(): void {
    this.#accepting = false;
  }

  idle(): Promise<void> {
    return this.#idle.wait(this.#running);
  }
}
