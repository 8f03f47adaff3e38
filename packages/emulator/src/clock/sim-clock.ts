/**
 * The simulated clock: real time plus an offset that the control plane can only grow.
 * Epochs, the 28-day unbonding and the 7-day expiry all read this clock.
 */
export class SimClock {
  constructor(
    private offsetMs: number,
    private readonly realNow: () => number = Date.now,
  ) {}

  now(): number {
    return this.realNow() + this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** Moves simulated time forward; returns the new offset (to persist). */
  advance(ms: number): number {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`advance needs a whole, non-negative number of milliseconds, got ${ms}`);
    this.offsetMs += ms;
    return this.offsetMs;
  }

  restore(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}
