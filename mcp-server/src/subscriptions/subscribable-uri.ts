import type { ReadableResources } from "../resources/register-resources.js";
import { watchedResource } from "../resources/resource-uris.js";
import { MAX_SUBSCRIBED_URI, uriTooLong } from "./subscription-limits.js";

/** Why a URI cannot be subscribed to: none of ours is that long (invalid), or the person's role may not read what it names. */
export type UriRefusal = { reason: "invalid_uri" | "not_readable"; message: string };

/**
 * Why a URI cannot be subscribed to, or null. An account or transaction needs the read it stands
 * for; any other URI (a stake list, one this server does not serve) is accepted and never notified.
 */
export function subscriptionRefusal(uri: string, readable: ReadableResources): UriRefusal | null {
  if (uri.length > MAX_SUBSCRIBED_URI) return { reason: "invalid_uri", message: uriTooLong(uri.length) };
  const resource = watchedResource(uri);
  if (resource === null || readable[resource.kind]) return null;
  return { reason: "not_readable", message: `${uri}: your role may not read ${resource.kind}s, so it may not subscribe to one` };
}
