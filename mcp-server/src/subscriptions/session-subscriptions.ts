import { ProtocolError, ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import type { ReadableResources } from "../resources/register-resources.js";
import type { ResourceChanges } from "./resource-changes.js";
import { subscriptionRefusal } from "./subscribable-uri.js";
import { MAX_SUBSCRIPTIONS_PER_STREAM, tooManySubscriptions, tooManyWatched } from "./subscription-limits.js";

/**
 * resources/subscribe and resources/unsubscribe (2025-11-25) on a session's server: each change
 * of a subscribed resource on the bus (a write sent by any replica, a status the poller saw) is
 * sent to the client as notifications/resources/updated, until it unsubscribes or the session ends.
 */
export function registerResourceSubscriptions(server: McpServer, changes: ResourceChanges, readable: ReadableResources): void {
  const session = server.server;
  /** Each subscribed URI, with the call that stops its polling. */
  const subscribed = new Map<string, () => void>();
  let stopListening: (() => void) | null = null;
  const listen = () => {
    stopListening ??= changes.bus.subscribe((uri) => {
      if (subscribed.has(uri)) void session.sendResourceUpdated({ uri }).catch(() => {});
    });
  };
  const end = () => {
    stopListening?.();
    stopListening = null;
    for (const unwatch of subscribed.values()) unwatch();
    subscribed.clear();
  };
  session.registerCapabilities({ resources: { subscribe: true } });
  // Answered once the resource's first reading was tried: a change after the answer is notified.
  session.setRequestHandler("resources/subscribe", async (request) => {
    const uri = request.params.uri;
    const refusal = subscriptionRefusal(uri, readable);
    if (refusal !== null) throw new ProtocolError(ProtocolErrorCode.InvalidParams, refusal);
    if (subscribed.has(uri)) return {};
    if (subscribed.size >= MAX_SUBSCRIPTIONS_PER_STREAM) throw new ProtocolError(ProtocolErrorCode.InvalidParams, tooManySubscriptions(subscribed.size));
    const watching = changes.watch(uri);
    if (watching === null) throw new ProtocolError(ProtocolErrorCode.InternalError, tooManyWatched());
    subscribed.set(uri, watching.release);
    listen();
    await watching.ready;
    return {};
  });
  session.setRequestHandler("resources/unsubscribe", (request) => {
    const uri = request.params.uri;
    subscribed.get(uri)?.();
    subscribed.delete(uri);
    if (subscribed.size === 0) {
      stopListening?.();
      stopListening = null;
    }
    return {};
  });
  const closed = session.onclose;
  session.onclose = () => {
    end();
    closed?.();
  };
}
