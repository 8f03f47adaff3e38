import type { ServerContext } from "../server/server-context.js";
import type { ToolCall } from "../server/tool-call.js";

export const AUDIT_SURFACE = "mcp";

type Operation = Omit<Parameters<ServerContext["road"]["recordOperation"]>[0], "person">;

/**
 * Audits a call that changes something at the service without a dry run (an account sync, an
 * operator's creation or registration), or a refusal before the road, through the write road's
 * store, as the call's operator and person.
 */
export function recordOperation(call: Pick<ToolCall, "ctx" | "person">, entry: Operation): Promise<void> {
  return call.ctx.road.recordOperation({ ...entry, person: call.person });
}
