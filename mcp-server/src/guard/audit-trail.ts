import type { ServerContext } from "../server/server-context.js";

export const AUDIT_SURFACE = "mcp";

/**
 * Audits a call that changes something at the service without a dry run (an account sync, an
 * operator's creation or registration), through the write road's store, as this server's operator.
 */
export function recordOperation(ctx: ServerContext, entry: Parameters<ServerContext["road"]["recordOperation"]>[0]): Promise<void> {
  return ctx.road.recordOperation(entry);
}
