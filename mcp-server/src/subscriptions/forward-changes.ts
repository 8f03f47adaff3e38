import type { McpServer } from "@modelcontextprotocol/server";
import type { ResourceChanges } from "./resource-changes.js";

/**
 * A 2026-07-28 stdio connection's server tells every change on the bus as
 * notifications/resources/updated: the SDK's entry sends each on to the listen streams that named
 * its URI, and drops the rest. Until the server closes.
 */
export function forwardChanges(server: McpServer, changes: ResourceChanges): void {
  const session = server.server;
  const stop = changes.bus.subscribe((uri) => void session.sendResourceUpdated({ uri }).catch(() => {}));
  const closed = session.onclose;
  session.onclose = () => {
    stop();
    closed?.();
  };
}
