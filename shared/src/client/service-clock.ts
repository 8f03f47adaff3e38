/**
 * The service's time, as its answers give it (the HTTP Date header): the dates of an answer
 * (when a stake becomes withdrawable, when unbonded funds unlock) are the service's times plus
 * durations it counts from its own now, so they are dated from the service's clock, not this
 * machine's. Until an answer carried a Date, the local clock stands in.
 */
export class ServiceClock {
  #offsetMs: number | null = null;

  constructor(private readonly localNow: () => number = Date.now) {}

  /** Reads an answer's Date header (RFC 9110 IMF-fixdate, one-second resolution); an unreadable one is ignored. */
  observe(date: string | null): void {
    if (date === null) return;
    const at = Date.parse(date);
    if (Number.isNaN(at)) return;
    // The header has whole seconds: the service's time is within the second after it.
    this.#offsetMs = at + 500 - this.localNow();
  }

  /** Whether any answer has told the service's time yet. */
  get known(): boolean {
    return this.#offsetMs !== null;
  }

  now(): Date {
    return new Date(this.localNow() + (this.#offsetMs ?? 0));
  }
}
