import { z } from "zod";
import { buildWithdrawUnbondedRequest } from "./polkadot-staking-requests.js";
import { describeAmount } from "../../units/describe-amount.js";
import { WriteNote } from "../kit/write-note.js";
import { planPolkadotStaking } from "./polkadot-staking-write.js";
import { ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const PolkadotWithdrawUnbondedRequest = z.object({ kind: z.literal("polkadot_withdraw_unbonded"), ...ON_ACCOUNT, note: WriteNote.optional() });

/** WITHDRAWUNBONDED: moves every unbonded fund back to the available balance. */
export const polkadotWithdrawUnbondedWrite = defineWrite({
  kind: "polkadot_withdraw_unbonded",
  identity: WRITE_IDENTITIES.polkadot_withdraw_unbonded,
  schema: PolkadotWithdrawUnbondedRequest,
  target: "account",
  amountFields: [],
  plan: (ctx, request, reference) =>
    planPolkadotStaking(ctx, request, reference, {
      title: "polkadot withdraw unbonded",
      operation: { type: "WITHDRAWUNBONDED" },
      draws: null,
      build: (input) => buildWithdrawUnbondedRequest(input),
      summary: (account, currency) =>
        localText(
          "withdraw the unbonded {0} of {1} to its available balance",
          describeAmount(account.coin_fields.balances.total_unbonded, currency),
          account.name,
        ),
    }),
});
