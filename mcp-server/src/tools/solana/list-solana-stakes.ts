import { z } from "zod";
import { solanaStakeLine, stakeActionNames } from "../../views/stake-view.js";
import { workspaceView } from "../../views/workspace-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { Entity, toolOutput } from "../tool-output.js";

export const listSolanaStakes = defineTool({
  name: "list_solana_stakes",
  title: "List Solana stakes",
  description: "Lists a Solana account's open stakes: uid, state, balances in both units, validator, and the actions allowed now.",
  toolset: "read",
  input: { account: AccountInput },
  output: toolOutput({ stakes: z.array(Entity) }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { account, currency } = await accountWithCurrency(call, args.account);
    const stakes = await call.ctx.client.listSolanaStakes(account.id, { signal: call.signal });
    return {
      structured: { stakes: stakes.map((stake) => ({ ...(workspaceView(stake, currency) as object), actions: stakeActionNames(stake) })) },
      text: [`${stakes.length} stakes on account ${account.id}:`, ...stakes.map((stake) => solanaStakeLine(stake, currency))].join("\n"),
    };
  },
});
