import type { WriteTrace } from "../audit/write-traces.js";
import { BackgroundLookups, type LookupConclusion, type WatchedWrite } from "./background-lookups.js";
import { recordLookup } from "./lookup-record.js";
import { lookedUpRecord, resolvedRecord } from "./road-records.js";
import type { RoadPorts } from "./road-types.js";

const MIN_LOOKUP_HORIZON_MS = 60_000;
/** At most this many unanswered writes are resumed when a road opens its store, or at each sweep: the newest, a bounded read. */
const MAX_RESUMED_LOOKUPS = 100;
/** Request timeouts a live sender may spend without a record (its POST, its quick look-ups, a last look-up's GETs and their retries). */
const QUIET_TIMEOUTS = 30;

/**
 * A road's background look-ups of writes whose answer was lost: each look-up that finds nothing
 * recorded, each write concluded once. On opening, those the store shows unanswered are resumed; and
 * at every sweep, those another process left unanswered and stopped (a replica that died).
 */
export class RoadLookups {
  readonly #lookups: BackgroundLookups;
  readonly #resuming: Promise<void>;
  #sweeper: NodeJS.Timeout | null = null;
  readonly #sweepEveryMs: number;
  /**
   * How long a write's records must have been quiet (since its reservation, its unclear answer or its last
   * look-up) for no sender to be alive: a sender's look-ups pause at most half the horizon between them, and
   * each of its quick look-ups and GETs may take several request timeouts on a slow service. Generous on
   * purpose: a sweep that took a live sender's write would conclude it early.
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
    this.#abandonedAfterMs = 2 * horizonMs + QUIET_TIMEOUTS * ports.client.timeoutMs;
    this.#resuming = this.#resumeUnanswered(null);
    this.#sweepEveryMs = ports.lookupSweepMs ?? Math.max(MIN_LOOKUP_HORIZON_MS, horizonMs);
    this.#scheduleSweep();
  }

  /** The next sweep, between half and one and a half intervals away: replicas started together do not sweep together. */
  #scheduleSweep(): void {
    this.#sweeper = setTimeout(() => this.#sweep(), this.#sweepEveryMs * (0.5 + Math.random())).unref();
  }

  /** Stops sweeping (the look-ups under way go on): for a road another one replaces on the same store. */
  stopSweeping(): void {
    if (this.#sweeper !== null) clearTimeout(this.#sweeper);
    this.#sweeper = null;
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
    this.stopSweeping();
    this.#lookups.stop();
    await this.#resuming;
    await this.#sweeping;
    await this.#lookups.settled();
  }

  /** Resumes the look-ups of the writes another process left unanswered and stopped, one at a time; one sweep at a time. */
  #sweep(): void {
    if (this.#sweeper === null) return;
    const quietSince = new Date(this.ports.store.time().getTime() - this.#abandonedAfterMs);
    this.#sweeping = this.#resumeUnanswered(quietSince).finally(() => {
      this.#sweeping = null;
      if (this.#sweeper !== null) this.#scheduleSweep();
    });
  }

  /**
   * Resumes the look-ups of this operator's writes that the store shows unanswered (reserved with no
   * answer, or answered ambiguously, and not concluded), with `sentBy` only those reserved by then: a
   * process that stopped mid-write, or while looking one up, left them so. Each is looked up at once
   * from what the store kept before its POST; one this process is looking up already is not twice.
   */
  async #resumeUnanswered(quietSince: Date | null): Promise<void> {
    let unanswered: WriteTrace[];
    try {
      const query = { operator: this.ports.operator, since: this.since(), ...(quietSince === null ? {} : { sentBy: quietSince }) };
      unanswered = await this.ports.store.unansweredWrites(query, MAX_RESUMED_LOOKUPS);
    } catch {
      // A store that cannot be read now refuses the first call that needs it, naming why.
      return;
    }
    for (const trace of unanswered) {
      if (trace.recognition === undefined) continue;
      if (quietSince !== null && !(await this.#stillAbandoned(trace, quietSince))) continue;
      // Its records name the person the write was made for, as its sender's would: the trace keeps their subject alone.
      const person = trace.person === undefined ? null : { subject: trace.person };
      const watched = this.#lookups.watch(
        { operator: trace.operator, reference: trace.reference, recognition: trace.recognition, tool: trace.tool, person },
        { sentAt: Date.parse(trace.reserved_at) },
      );
      // A sweep looks up one write at a time: replicas sweeping the same writes do not flood a service that may be failing.
      if (quietSince !== null) await watched;
    }
  }

  /** Whether a write a sweep found is still unconcluded, read again just before its look-up, and its records quiet since `quietSince`. */
  async #stillAbandoned(found: WriteTrace, quietSince: Date): Promise<boolean> {
    let trace: WriteTrace | null;
    try {
      trace = await this.ports.store.writeByReference(found.reference, this.since());
    } catch {
      return false;
    }
    if (trace === null || trace.transaction_id !== null || trace.status === "not_applied" || trace.given_up === true) return false;
    const last = [trace.reserved_at, trace.answer_lost_at, trace.last_lookup?.at].reduce<number>(
      (latest, at) => (at === undefined ? latest : Math.max(latest, Date.parse(at))),
      0,
    );
    return last <= quietSince.getTime();
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
