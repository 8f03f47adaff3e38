import { toolsetEnabled, type Person } from "@custody/shared";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DeferredContext } from "../server/server-context.js";
import { registerAccountResource } from "./account-resource.js";
import { registerStakeResources } from "./stake-resources.js";
import { registerTransactionResource } from "./transaction-resource.js";

/** Resources are reads: they are there unless the policy (for a person: through their role) does not enable "read". */
export function registerResources(server: McpServer, ctx: DeferredContext, person: Person | null): void {
  if (!toolsetEnabled(ctx.policy, "read", person)) return;
  registerAccountResource(server, ctx);
  registerTransactionResource(server, ctx);
  registerStakeResources(server, ctx);
}
