import type { ReadableResources } from "../resources/register-resources.js";
import type { ResourceChanges } from "./resource-changes.js";
import type { Watching } from "./resource-poller.js";
import { subscriptionRefusal, type UriRefusal } from "./subscribable-uri.js";
import { MAX_SUBSCRIPTIONS_PER_STREAM } from "./subscription-limits.js";

/** Why resources were not subscribed to: more than one stream may hold, one URI refused (why), or no place left to watch it. */
export type SubscriptionRefusal = { reason: "per_stream" } | UriRefusal | { reason: "watched" };

/**
 * The resources one stream is subscribed to, a 2025-11-25 session's or a 2026-07-28 listen stream's,
 * each watched (its changes polled) while it is. Both generations admit them here: at most
 * MAX_SUBSCRIPTIONS_PER_STREAM, each one the person may read, each given a place among the
 * resources this process watches.
 */
export class StreamWatches {
  readonly #watching = new Map<string, Watching>();

  constructor(
    private readonly changes: ResourceChanges,
    private readonly readable: ReadableResources,
  ) {}

  get size(): number {
    return this.#watching.size;
  }

  has(uri: string): boolean {
    return this.#watching.has(uri);
  }

  /**
   * Subscribes to every one of `uris` not held yet, or to none of them; `ready` settles once their
   * first readings were tried (a change after it is notified).
   */
  add(uris: readonly string[]): { refused: SubscriptionRefusal } | { ready: Promise<void> } {
    const fresh = [...new Set(uris)].filter((uri) => !this.#watching.has(uri));
    // More than a stream may hold is refused before any URI is looked at; a URI refused, before the count it would add to.
    if (fresh.length > MAX_SUBSCRIPTIONS_PER_STREAM) return { refused: { reason: "per_stream" } };
    for (const uri of fresh) {
      const refusal = subscriptionRefusal(uri, this.readable);
      if (refusal !== null) return { refused: refusal };
    }
    if (this.#watching.size + fresh.length > MAX_SUBSCRIPTIONS_PER_STREAM) return { refused: { reason: "per_stream" } };
    const added: Watching[] = [];
    for (const uri of fresh) {
      const watching = this.changes.watch(uri);
      if (watching === null) {
        for (const done of fresh.slice(0, added.length)) this.release(done);
        return { refused: { reason: "watched" } };
      }
      this.#watching.set(uri, watching);
      added.push(watching);
    }
    return { ready: Promise.all(added.map((watching) => watching.ready)).then(() => undefined) };
  }

  release(uri: string): void {
    this.#watching.get(uri)?.release();
    this.#watching.delete(uri);
  }

  releaseAll(): void {
    for (const uri of [...this.#watching.keys()]) this.release(uri);
  }
}
