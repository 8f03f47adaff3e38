import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DeferredContext } from "../server/server-context.js";
import { registerAccountResource } from "./account-resource.js";
import { registerStakeResources } from "./stake-resources.js";
import { registerTransactionResource } from "./transaction-resource.js";

/** Resources are reads: they are there unless the policy names toolsets without "read". */
export function registerResources(server: McpServer, ctx: DeferredContext): void {
  if (ctx.policy.toolsets !== undefined && !ctx.policy.toolsets.includes("read")) return;
  registerAccountResource(server, ctx);
  registerTransactionResource(server, ctx);
  registerStakeResources(server, ctx);
}
