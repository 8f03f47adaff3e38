import type { Policy } from "@custody/shared";
import { INVALID_PARAMS } from "@modelcontextprotocol/server";
import { readableResources, type ReadableResources } from "../resources/register-resources.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import type { Watching } from "../subscriptions/resource-poller.js";
import type { PersonShare } from "../subscriptions/person-share.js";
import { StreamWatches } from "../subscriptions/stream-watches.js";
import { tooManySubscriptions, tooManyWatched } from "../subscriptions/subscription-limits.js";
import type { Access } from "./request-authorizer.js";

/** Why a stream was not opened: the HTTP status, and the JSON-RPC code and message of its error answer. */
export interface ListenRefusal {
  status: number;
  code: number;
  message: string;
}

/** A stream admitted: `ready` settles once the first readings of its resources were tried; `release` when it ends. */
export type ListenAdmission = { refused: ListenRefusal } | Watching;

/** The resource URIs a subscriptions/listen request asks for; its shape is the SDK's to check (it answers -32602). */
function requestedUris(request: unknown): string[] {
  const requested = (request as { params?: { notifications?: { resourceSubscriptions?: unknown } } } | null)?.params?.notifications?.resourceSubscriptions;
  return Array.isArray(requested) ? requested.filter((uri): uri is string => typeof uri === "string") : [];
}

/**
 * Watches the accounts and transactions a subscriptions/listen request names, once they are found
 * within a stream's limits (StreamWatches).
 */
export function watchListened(request: unknown, changes: ResourceChanges, readable: ReadableResources): ListenAdmission {
  const uris = requestedUris(request);
  const watches = new StreamWatches(changes, readable);
  const added = watches.add(uris);
  if ("refused" in added) {
    const refused = added.refused;
    if (refused.reason === "watched") return { refused: { status: 503, code: -32000, message: tooManyWatched() } };
    // Invalid params reach an SDK client as the protocol error they are on a 400; what the role may not read is forbidden.
    const status = refused.reason === "not_readable" ? 403 : 400;
    const text = refused.reason === "per_stream" ? tooManySubscriptions(new Set(uris).size) : refused.message;
    return { refused: { status, code: INVALID_PARAMS, message: `params.notifications.resourceSubscriptions: ${text}` } };
  }
  return { ready: added.ready, release: () => watches.releaseAll() };
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
  constructor(
    private readonly perPerson: PersonShare,
    private readonly changes: ResourceChanges,
    private readonly policy: Policy,
  ) {}

  admit(access: Access, body: unknown): ListenAdmission {
    const giveBack = this.perPerson.take(access.person === null ? null : access.subject);
    if (giveBack === null) return { refused: { status: 429, code: -32000, message: tooManyStreams(this.perPerson.share) } };
    const watched = watchListened(body, this.changes, readableResources(this.policy, access.person));
    if ("refused" in watched) {
      giveBack();
      return watched;
    }
    return {
      ready: watched.ready,
      release: () => {
        watched.release();
        giveBack();
      },
    };
  }
}
