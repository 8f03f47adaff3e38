import { readToolQuery, toolPermission, type Person, type Policy } from "@custody/shared";
import type { McpServer } from "@modelcontextprotocol/server";
import type { DeferredContext } from "../server/server-context.js";
import { registerAccountResource } from "./account-resource.js";
import { registerStakeResources } from "./stake-resources.js";
import { registerTransactionResource } from "./transaction-resource.js";

/** Which of the account and transaction resources a person (through their role) may read, and so subscribe to. */
export interface ReadableResources {
  account: boolean;
  transaction: boolean;
}

export function mayUse(policy: Policy, person: Person | null): (...tools: string[]) => boolean {
  return (...tools) => tools.every((name) => toolPermission(policy, readToolQuery(name), person).allowed);
}

export function readableResources(policy: Policy, person: Person | null): ReadableResources {
  const may = mayUse(policy, person);
  return { account: may("get_account", "list_accounts"), transaction: may("get_transaction") };
}

/**
 * Resources are reads, each the same read as a tool's: it is there only where the policy (for a
 * person: through their role) lets that tool run, so a tool list or a role's narrowing cannot be
 * read around.
 */
export function registerResources(server: McpServer, ctx: DeferredContext, person: Person | null, readable: ReadableResources): void {
  const may = mayUse(ctx.policy, person);
  if (readable.account) registerAccountResource(server, ctx);
  if (readable.transaction) registerTransactionResource(server, ctx);
  registerStakeResources(server, ctx, { solana: may("list_solana_stakes"), solanaStake: may("get_solana_stake"), ethereum: may("list_ethereum_stakes") });
}
