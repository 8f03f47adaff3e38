import type { WriteTrace } from "../audit/write-traces.js";
import { BackgroundLookups, type LookupConclusion, type WatchedWrite } from "./background-lookups.js";
import { recordLookup } from "./lookup-record.js";
import { lookedUpRecord, resolvedRecord } from "./road-records.js";
import type { RoadPorts } from "./road-types.js";

const MIN_LOOKUP_HORIZON_MS = 60_000;
/** At most this many unanswered writes are resumed when a road opens its store, or at each sweep: the newest, a bounded read. */
const MAX_RESUMED_LOOKUPS = 100;

/**
 * A road's background look-ups of writes whose answer was lost: each look-up that finds nothing
 * recorded, each write concluded once. On opening, those the store shows unanswered are resumed; and
 * at every sweep, those another process left unanswered and stopped (a replica that died).
 */
export class RoadLookups {
  readonly #lookups: BackgroundLookups;
  readonly #resuming: Promise<void>;
  readonly #sweeper: NodeJS.Timeout;
  /**
   * A write's sender concludes it (found, or given up) within its POST's timeout, the horizon and its
   * last look-up's timeout of reserving it; one still unanswered a horizon past that has no sender alive
   * (the extra horizon is the margin for clocks apart and slow appends).
   */
  readonly #abandonedAfterMs: number;
  #sweeping: Promise<void> | null = null;

  /** `since`: how far back a write counts (the duplicate window's start, on the store's clock). */
  constructor(
    private readonly ports: RoadPorts,
    private readonly since: () => Date,
  ) {
    const horizonMs = ports.lookupHorizonMs ?? Math.max(MIN_LOOKUP_HORIZON_MS, 4 * ports.client.timeoutMs);
    this.#lookups = new BackgroundLookups(ports.client, {
      horizonMs,
      ...(ports.lookupFirstDelayMs === undefined ? {} : { firstDelayMs: ports.lookupFirstDelayMs }),
      conclude: (write, conclusion) => this.#conclude(write, conclusion),
      lookedUp: (write, result) => recordLookup(ports.store, lookedUpRecord(ports.surface, write, result)),
    });
    this.#abandonedAfterMs = 2 * horizonMs + 2 * ports.client.timeoutMs;
    this.#resuming = this.#resumeUnanswered(null);
    this.#sweeper = setInterval(() => this.#sweep(), ports.lookupSweepMs ?? Math.max(MIN_LOOKUP_HORIZON_MS, horizonMs)).unref();
  }

  watch(write: WatchedWrite): void {
    this.#lookups.watch(write);
  }

  /** Whether the write with this reference is still being looked up. */
  watching(reference: string): boolean {
    return this.#lookups.watching(reference);
  }

  /** Resolves when every look-up (those resumed from the store included) has concluded. */
  async settled(): Promise<void> {
    await this.#resuming;
    await this.#sweeping;
    await this.#lookups.settled();
  }

  /** No sweep or look-up touches the store once it resolves (a sweep under way has read it): call it before the store closes. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#lookups.stop();
    await this.#resuming;
    await this.#sweeping;
  }

  /** Resumes the look-ups of the writes another process left unanswered and stopped; one sweep at a time. */
  #sweep(): void {
    if (this.#sweeping !== null) return;
    const sentBy = new Date(this.ports.store.time().getTime() - this.#abandonedAfterMs);
    this.#sweeping = this.#resumeUnanswered(sentBy).finally(() => (this.#sweeping = null));
  }

  /**
   * Resumes the look-ups of this operator's writes that the store shows unanswered (reserved with no
   * answer, or answered ambiguously, and not concluded), with `sentBy` only those reserved by then: a
   * process that stopped mid-write, or while looking one up, left them so. Each is looked up at once
   * from what the store kept before its POST; one this process is looking up already is not twice.
   */
  async #resumeUnanswered(sentBy: Date | null): Promise<void> {
    let unanswered: WriteTrace[];
    try {
      const query = { operator: this.ports.operator, since: this.since(), ...(sentBy === null ? {} : { sentBy }) };
      unanswered = await this.ports.store.unansweredWrites(query, MAX_RESUMED_LOOKUPS);
    } catch {
      // A store that cannot be read now refuses the first call that needs it, naming why.
      return;
    }
    for (const trace of unanswered) {
      if (trace.recognition === undefined) continue;
      // Its records name the person the write was made for, as its sender's would: the trace keeps their subject alone.
      const person = trace.person === undefined ? null : { subject: trace.person };
      this.#lookups.watch(
        { operator: trace.operator, reference: trace.reference, recognition: trace.recognition, tool: trace.tool, person },
        { sentAt: Date.parse(trace.reserved_at) },
      );
    }
  }

  async #conclude(write: WatchedWrite, conclusion: LookupConclusion): Promise<void> {
    try {
      // Another process (or this one's dry run) may have concluded it meanwhile: one conclusion is enough.
      const now = await this.ports.store.writeByReference(write.reference, this.since());
      if (now !== null && (now.transaction_id !== null || now.status === "not_applied" || (!conclusion.found && now.given_up === true))) return;
      await this.ports.store.append(resolvedRecord(this.ports.surface, write, "background_lookup", conclusion));
    } catch {
      // The write stays counted as uncertain; the next look-up (a search by its reference) still finds it.
    }
  }
}
