import { z } from "zod";
import { buildDelegateSolanaStakeRequest } from "./solana-stake-requests.js";
import { describeAmount } from "../../units/describe-amount.js";
import { buildBody } from "../kit/built-body.js";
import { planStakeAction } from "./solana-stake-action.js";
import { WriteAddress, ON_STAKE } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";
import { balanceChange } from "../kit/balance-change.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const SolanaDelegateStakeRequest = z.object({ kind: z.literal("solana_delegate_stake"), ...ON_STAKE, validator: WriteAddress });

/** Delegates a stake's whole balance to a validator again. */
export const solanaDelegateStakeWrite = defineWrite({
  kind: "solana_delegate_stake",
  identity: WRITE_IDENTITIES.solana_delegate_stake,
  schema: SolanaDelegateStakeRequest,
  target: "account",
  amountFields: [],
  plan: (ctx, request) =>
    planStakeAction(ctx, request, {
      action: "delegate",
      validator: request.validator,
      build: () => buildBody(() => buildDelegateSolanaStakeRequest({ validator: request.validator })),
      policy: (total) => ({ amount: total, validator: request.validator }),
      into: [{ role: "validator", value: request.validator }],
      summary: (stake, currency) =>
        localText(
          "delegate the whole {0} of stake {1} to validator {2}",
          describeAmount(stake.blockchain_state.total_balance, currency),
          stake.uid,
          request.validator,
        ),
      send: (client, accountId, uid, body, options) => client.delegateSolanaStake(accountId, uid, body, options),
      expected: { validator: request.validator },
      balances: (stake) => [balanceChange("stake total_balance (delegated whole)", stake.blockchain_state.total_balance, 0n)],
    }),
});
