import { requireNetwork, SolanaEpochClock } from "@custody/shared";
import { z } from "zod";
import { SolanaStakeView, solanaStakeLine, solanaStakeView } from "../../views/stake-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

export const listSolanaStakes = defineTool({
  name: "list_solana_stakes",
  title: "List Solana stakes",
  description: "A Solana account's open stakes: uid, state, balances (both units), validator, actions allowed now, when withdrawable.",
  toolset: "read",
  input: { account: AccountInput },
  output: toolOutput({ stakes: z.array(SolanaStakeView) }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { account, currency } = await accountWithCurrency(call, args.account);
    requireNetwork(account, "listing Solana stakes", "Solana");
    const stakes = await call.ctx.client.listSolanaStakes(account.id, { signal: call.signal });
    const clock = SolanaEpochClock.fromStakes(stakes, call.ctx.client.serviceNow());
    return {
      structured: { stakes: stakes.map((stake) => solanaStakeView(stake, currency, clock)) },
      text: [`${stakes.length} stakes on account ${account.id}:`, ...stakes.map((stake) => solanaStakeLine(stake, currency, clock))].join("\n"),
    };
  },
});
