import { ResourceTemplate, UriTemplate, type McpServer } from "@modelcontextprotocol/server";
import type { DeferredContext } from "../server/server-context.js";
import { idVariable, jsonContents } from "./resource-contents.js";

// Parsed once per process: a 2026-07-28 request builds a server, not its resources' templates.
const SOLANA_STAKES = new UriTemplate("custody://solana/accounts/{account_id}/stakes");
const ETHEREUM_STAKES = new UriTemplate("custody://ethereum/accounts/{account_id}/stakes");

/** custody://solana/accounts/{account_id}/stakes and custody://ethereum/accounts/{account_id}/stakes. */
export function registerStakeResources(server: McpServer, session: DeferredContext, allowed: { solana: boolean; ethereum: boolean }): void {
  if (allowed.solana) registerSolanaStakes(server, session);
  if (allowed.ethereum) registerEthereumStakes(server, session);
}

function registerSolanaStakes(server: McpServer, session: DeferredContext): void {
  server.registerResource(
    "solana_stakes",
    new ResourceTemplate(SOLANA_STAKES, { list: undefined }),
    { title: "Solana stakes", description: "A Solana account's open stakes, balances in both units, with the actions allowed now.", mimeType: "application/json" },
    async (uri, variables, extra) => {
      const ctx = await session.load();
      const accountId = idVariable(variables, "account_id");
      const account = await ctx.client.getAccount(accountId, { signal: extra.mcpReq.signal });
      const currency = await ctx.currencies.get(account.currency, extra.mcpReq.signal);
      const stakes = await ctx.client.listSolanaStakes(accountId, { signal: extra.mcpReq.signal });
      const { SolanaEpochClock, solanaStakeView } = await import("../on-demand/call-time-modules.js");
      const clock = SolanaEpochClock.fromStakes(stakes, ctx.client.serviceNow());
      return jsonContents(uri, stakes.map((stake) => solanaStakeView(stake, currency, clock)));
    },
  );
}

function registerEthereumStakes(server: McpServer, session: DeferredContext): void {
  server.registerResource(
    "ethereum_stakes",
    new ResourceTemplate(ETHEREUM_STAKES, { list: undefined }),
    { title: "Ethereum stakes", description: "An Ethereum account's staking positions, amounts in both units.", mimeType: "application/json" },
    async (uri, variables, extra) => {
      const ctx = await session.load();
      const accountId = idVariable(variables, "account_id");
      const account = await ctx.client.getAccount(accountId, { signal: extra.mcpReq.signal });
      const currency = await ctx.currencies.get(account.currency, extra.mcpReq.signal);
      const stakes = await ctx.client.listAllEthereumStakes(accountId, { signal: extra.mcpReq.signal, maxPages: 20 });
      const { workspaceView } = await import("../on-demand/call-time-modules.js");
      return jsonContents(uri, workspaceView(stakes, currency));
    },
  );
}
