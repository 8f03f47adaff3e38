import { z } from "zod";
import { describeAmount } from "../../units/describe-amount.js";
import { NO_BODY } from "../kit/built-body.js";
import { planStakeAction } from "./solana-stake-action.js";
import { ON_STAKE } from "../kit/request-fields.js";
import { defineWrite, describedDestination } from "../kit/write-spec.js";
import { balanceChange } from "../kit/balance-change.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const SolanaWithdrawStakeRequest = z.object({ kind: z.literal("solana_withdraw_stake"), ...ON_STAKE });

/** Withdraws a deactivated stake back to its account. */
export const solanaWithdrawStakeWrite = defineWrite({
  kind: "solana_withdraw_stake",
  identity: WRITE_IDENTITIES.solana_withdraw_stake,
  schema: SolanaWithdrawStakeRequest,
  target: "account",
  amountFields: [],
  plan: (ctx, request) =>
    planStakeAction(ctx, request, {
      action: "withdraw",
      build: () => NO_BODY,
      policy: () => ({}),
      into: [describedDestination("into", localText("the account's available balance"))],
      summary: (stake, currency) =>
        localText("withdraw stake {0} ({1}) back to its account", stake.uid, describeAmount(stake.blockchain_state.total_balance, currency)),
      send: (client, accountId, uid, _body, options) => client.withdrawSolanaStake(accountId, uid, options),
      expected: {},
      balances: (stake) => [balanceChange("stake total_balance", stake.blockchain_state.total_balance, -stake.blockchain_state.total_balance)],
    }),
});
