import { z } from "zod";
import { buildSplitSolanaStakeRequest } from "./solana-stake-requests.js";
import { describeAmount } from "../kit/plan-context.js";
import { buildBody } from "../kit/built-body.js";
import { planStakeAction, splitBalances } from "./solana-stake-action.js";
import { BaseAmount, ON_STAKE } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";

export const SolanaSplitDeactivateStakeRequest = z.object({ kind: z.literal("solana_split_deactivate_stake"), ...ON_STAKE, amount: BaseAmount });

/** Splits an amount off a stake into a new stake and deactivates the new one. */
export const solanaSplitDeactivateStakeWrite = defineWrite({
  kind: "solana_split_deactivate_stake",
  identity: { tool: "solana_split_deactivate_stake", toolset: "solana_staking", title: "Split and deactivate part of a Solana stake" },
  schema: SolanaSplitDeactivateStakeRequest,
  target: "account",
  amountFields: ["amount"],
  plan: (ctx, request) =>
    planStakeAction(ctx, request, {
      action: "split_deactivate",
      amount: request.amount,
      build: () => buildBody(() => buildSplitSolanaStakeRequest({ amount: request.amount })),
      policy: () => ({ amount: request.amount }),
      into: [{ role: "into", value: "a new stake, deactivated" }],
      summary: (stake, currency) => `split ${describeAmount(request.amount, currency)} off stake ${stake.uid} into a new stake and deactivate the new stake`,
      send: (client, accountId, uid, body, options) => client.splitDeactivateSolanaStake(accountId, uid, body, options),
      expected: { amount: request.amount.toString() },
      balances: (stake) => splitBalances(stake, request.amount),
    }),
});
