import { ResourceTemplate, UriTemplate, type McpServer, type Variables } from "@modelcontextprotocol/server";
import type { DeferredContext, ServerContext } from "../server/server-context.js";
import { epochClockOf, INPUT_LIMITS, type Currency } from "@custody/shared";
import { idVariable, jsonContents, readNamedResource, textVariable } from "./resource-contents.js";

export const SOLANA_STAKES_TEMPLATE = "custody://solana/accounts/{account_id}/stakes";
export const SOLANA_STAKE_TEMPLATE = "custody://solana/accounts/{account_id}/stakes/{stake_uid}";
export const ETHEREUM_STAKES_TEMPLATE = "custody://ethereum/accounts/{account_id}/stakes";
// Parsed once per process: a 2026-07-28 request builds a server, not its resources' templates.
const SOLANA_STAKES = new UriTemplate(SOLANA_STAKES_TEMPLATE);
const SOLANA_STAKE = new UriTemplate(SOLANA_STAKE_TEMPLATE);
const ETHEREUM_STAKES = new UriTemplate(ETHEREUM_STAKES_TEMPLATE);

/** A Solana account's stakes, one Solana stake, an Ethereum account's positions: each where the policy lets its tool run. */
export function registerStakeResources(
  server: McpServer,
  session: DeferredContext,
  allowed: { solana: boolean; solanaStake: boolean; ethereum: boolean },
): void {
  if (allowed.solana) registerSolanaStakes(server, session);
  if (allowed.solanaStake) registerSolanaStake(server, session);
  if (allowed.ethereum) registerEthereumStakes(server, session);
}

interface AccountRead {
  ctx: ServerContext;
  accountId: number;
  currency: Currency;
  variables: Variables;
  signal: AbortSignal;
}

/** A JSON resource about the account a URI's account_id names (fetched fresh, with its currency). */
function registerAccountTemplate(
  server: McpServer,
  session: DeferredContext,
  name: string,
  template: UriTemplate,
  meta: { title: string; description: string },
  read: (about: AccountRead) => Promise<unknown>,
): void {
  server.registerResource(name, new ResourceTemplate(template, { list: undefined }), { ...meta, mimeType: "application/json" }, (uri, variables, extra) =>
    readNamedResource(uri, async () => {
      const signal = extra.mcpReq.signal;
      const ctx = await session.load();
      const accountId = idVariable(variables, "account_id");
      const account = await ctx.client.getAccount(accountId, { signal });
      const currency = await ctx.currencies.get(account.currency, signal);
      return jsonContents(uri, await read({ ctx, accountId, currency, variables, signal }));
    }),
  );
}

function registerSolanaStakes(server: McpServer, session: DeferredContext): void {
  const meta = { title: "Solana stakes", description: "A Solana account's open stakes, balances in both units, with the actions allowed now." };
  registerAccountTemplate(server, session, "solana_stakes", SOLANA_STAKES, meta, async ({ ctx, accountId, currency, signal }) => {
    const stakes = await ctx.client.listSolanaStakes(accountId, { signal });
    const { SolanaEpochClock, solanaStakeView } = await import("../views/resource-views.js");
    const clock = SolanaEpochClock.fromStakes(stakes, ctx.client.serviceNow());
    return stakes.map((stake) => solanaStakeView(stake, currency, clock));
  });
}

function registerSolanaStake(server: McpServer, session: DeferredContext): void {
  const meta = { title: "Solana stake", description: "One Solana stake, fresh: balances in both units, the actions allowed now, when withdrawable." };
  registerAccountTemplate(server, session, "solana_stake", SOLANA_STAKE, meta, async ({ ctx, accountId, currency, variables, signal }) => {
    const stake = await ctx.client.getSolanaStake(accountId, textVariable(variables, "stake_uid", INPUT_LIMITS.stake_uid), { signal });
    const { clock } = await epochClockOf(ctx, accountId);
    const { solanaStakeView } = await import("../views/resource-views.js");
    return solanaStakeView(stake, currency, clock);
  });
}

function registerEthereumStakes(server: McpServer, session: DeferredContext): void {
  const meta = { title: "Ethereum stakes", description: "An Ethereum account's staking positions, amounts in both units." };
  registerAccountTemplate(server, session, "ethereum_stakes", ETHEREUM_STAKES, meta, async ({ ctx, accountId, currency, signal }) => {
    const stakes = await ctx.client.listAllEthereumStakes(accountId, { signal, maxPages: 20 });
    const { workspaceView } = await import("../views/resource-views.js");
    return workspaceView(stakes, currency);
  });
}
