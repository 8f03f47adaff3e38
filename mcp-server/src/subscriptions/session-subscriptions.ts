import { ProtocolError, ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import type { ReadableResources } from "../resources/register-resources.js";
import type { ResourceChanges } from "./resource-changes.js";
import { StreamWatches } from "./stream-watches.js";
import { tooManySubscriptions, tooManyWatched } from "./subscription-limits.js";

/**
 * resources/subscribe and resources/unsubscribe (2025-11-25) on a session's server: each change
 * of a subscribed resource on the bus (a write sent by any replica, a status the poller saw) is
 * sent to the client as notifications/resources/updated, until it unsubscribes or the session ends.
 */
export function registerResourceSubscriptions(server: McpServer, changes: ResourceChanges, readable: ReadableResources): void {
  const session = server.server;
  const subscribed = new StreamWatches(changes, readable);
  let stopListening: (() => void) | null = null;
  const listen = () => {
    stopListening ??= changes.bus.subscribe((uri) => {
      if (subscribed.has(uri)) void session.sendResourceUpdated({ uri }).catch(() => {});
    });
  };
  const end = () => {
    stopListening?.();
    stopListening = null;
    subscribed.releaseAll();
  };
  session.registerCapabilities({ resources: { subscribe: true } });
  // Answered once the resource's first reading was tried: a change after the answer is notified.
  session.setRequestHandler("resources/subscribe", async (request) => {
    const added = subscribed.add([request.params.uri]);
    if ("refused" in added) {
      const refused = added.refused;
      if (refused.reason === "watched") throw new ProtocolError(ProtocolErrorCode.InternalError, tooManyWatched());
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, refused.reason === "per_stream" ? tooManySubscriptions(subscribed.size + 1) : refused.message);
    }
    listen();
    await added.ready;
    return {};
  });
  session.setRequestHandler("resources/unsubscribe", (request) => {
    subscribed.release(request.params.uri);
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
