import { z } from "zod";
import { describeAmount } from "../../units/describe-amount.js";
import { NO_BODY } from "../kit/built-body.js";
import { planStakeAction } from "./solana-stake-action.js";
import { ON_STAKE } from "../kit/request-fields.js";
import { defineWrite, describedDestination } from "../kit/write-spec.js";
import { balanceChange } from "../kit/balance-change.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const SolanaDeactivateStakeRequest = z.object({ kind: z.literal("solana_deactivate_stake"), ...ON_STAKE });

/** Deactivates a stake; it becomes withdrawable at the next epoch. */
export const solanaDeactivateStakeWrite = defineWrite({
  kind: "solana_deactivate_stake",
  identity: WRITE_IDENTITIES.solana_deactivate_stake,
  schema: SolanaDeactivateStakeRequest,
  target: "account",
  amountFields: [],
  plan: (ctx, request) =>
    planStakeAction(ctx, request, {
      action: "deactivate",
      build: () => NO_BODY,
      policy: () => ({}),
      into: [describedDestination("into", localText("its own inactive balance, withdrawable at the next epoch"))],
      summary: (stake, currency) =>
        localText(
          "deactivate stake {0} ({1}, {2}); it becomes withdrawable at the start of the next epoch",
          stake.uid,
          describeAmount(stake.blockchain_state.total_balance, currency),
          stake.blockchain_state.status,
        ),
      send: (client, accountId, uid, _body, options) => client.deactivateSolanaStake(accountId, uid, options),
      expected: {},
      balances: (stake) => [balanceChange("stake active_balance", stake.blockchain_state.active_balance, -stake.blockchain_state.active_balance)],
    }),
});
