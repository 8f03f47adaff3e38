import type { Policy } from "@custody/shared";
import { readableResources, type ReadableResources } from "../resources/register-resources.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import type { Watching } from "../subscriptions/resource-poller.js";
import { subscriptionRefusal } from "../subscriptions/subscribable-uri.js";
import { MAX_SUBSCRIPTIONS_PER_STREAM, tooManySubscriptions, tooManyWatched } from "../subscriptions/subscription-limits.js";
import type { Access } from "./request-authorizer.js";

/** A stream admitted: `ready` settles once the first readings of its resources were tried; `release` when it ends. */
export type ListenAdmission = { refused: { status: number; message: string } } | Watching;

/** The resource URIs a subscriptions/listen request asks for; its shape is the SDK's to check (it answers -32602). */
function requestedUris(request: unknown): string[] {
  const requested = (request as { params?: { notifications?: { resourceSubscriptions?: unknown } } } | null)?.params?.notifications?.resourceSubscriptions;
  return Array.isArray(requested) ? requested.filter((uri): uri is string => typeof uri === "string") : [];
}

/**
 * Watches the accounts and transactions a subscriptions/listen request names, once it is found
 * within the limits: at most MAX_SUBSCRIPTIONS_PER_STREAM resources, each one the person may read.
 */
export function watchListened(request: unknown, changes: ResourceChanges, readable: ReadableResources): ListenAdmission {
  const uris = [...new Set(requestedUris(request))];
  if (uris.length > MAX_SUBSCRIPTIONS_PER_STREAM)
    return { refused: { status: 400, message: `params.notifications.resourceSubscriptions: ${tooManySubscriptions(uris.length)}` } };
  for (const uri of uris) {
    const refusal = subscriptionRefusal(uri, readable);
    if (refusal !== null) return { refused: { status: 403, message: `params.notifications.resourceSubscriptions: ${refusal}` } };
  }
  const watchings: Watching[] = [];
  for (const uri of uris) {
    const watching = changes.watch(uri);
    if (watching === null) {
      for (const done of watchings) done.release();
      return { refused: { status: 503, message: tooManyWatched() } };
    }
    watchings.push(watching);
  }
  let released = false;
  return {
    ready: Promise.all(watchings.map((watching) => watching.ready)).then(() => undefined),
    release: () => {
      if (released) return;
      released = true;
      for (const watching of watchings) watching.release();
    },
  };
}

function tooManyStreams(perPerson: number): string {
  return `Too many listen streams: you hold ${perPerson} subscriptions/listen streams on this server already, the most one person may; close one first`;
}

/**
 * The 2026-07-28 listen streams of one server, as a session was for 2025: a person holds at most
 * their share at once, a stream names at most MAX_SUBSCRIPTIONS_PER_STREAM resources (each one
 * their role may read), and the accounts and transactions it names are polled while it is open.
 */
export class ListenStreams {
  readonly #held = new Map<string, number>();

  constructor(
    private readonly perPerson: number,
    private readonly changes: ResourceChanges,
    private readonly policy: Policy,
  ) {}

  admit(access: Access, body: unknown): ListenAdmission {
    // As for sessions, the shared bearer token is one principal whose streams only the server's own cap bounds.
    const subject = access.person === null ? null : access.subject;
    if (subject !== null && (this.#held.get(subject) ?? 0) >= this.perPerson) return { refused: { status: 429, message: tooManyStreams(this.perPerson) } };
    const watched = watchListened(body, this.changes, readableResources(this.policy, access.person));
    if ("refused" in watched || subject === null) return watched;
    this.#held.set(subject, (this.#held.get(subject) ?? 0) + 1);
    let released = false;
    return {
      ready: watched.ready,
      release: () => {
        if (released) return;
        released = true;
        watched.release();
        const left = (this.#held.get(subject) ?? 1) - 1;
        if (left > 0) this.#held.set(subject, left);
        else this.#held.delete(subject);
      },
    };
  }
}
