import { toolPermission, type Person } from "@custody/shared";
import type { McpServer } from "@modelcontextprotocol/server";
import type { DeferredContext } from "../server/server-context.js";
import { registerAccountResource } from "./account-resource.js";
import { registerStakeResources } from "./stake-resources.js";
import { registerTransactionResource } from "./transaction-resource.js";

/**
 * Resources are reads, each the same read as a tool's: it is there only where the policy (for a
 * person: through their role) lets that tool run, so a tool list or a role's narrowing cannot be
 * read around.
 */
export function registerResources(server: McpServer, ctx: DeferredContext, person: Person | null): void {
  const may = (...tools: string[]) => tools.every((name) => toolPermission(ctx.policy, { name, toolset: "read", readOnly: true }, person).allowed);
  if (may("get_account", "list_accounts")) registerAccountResource(server, ctx);
  if (may("get_transaction")) registerTransactionResource(server, ctx);
  registerStakeResources(server, ctx, { solana: may("list_solana_stakes"), solanaStake: may("get_solana_stake"), ethereum: may("list_ethereum_stakes") });
}
