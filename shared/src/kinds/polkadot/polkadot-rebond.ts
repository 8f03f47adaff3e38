import { z } from "zod";
import { buildRebondRequest } from "./polkadot-staking-requests.js";
import { describeAmount } from "../kit/plan-context.js";
import { WriteNote } from "../kit/write-note.js";
import { POLKADOT_AMOUNT_OPERATIONS } from "./polkadot-balance-draws.js";
import { planPolkadotStaking } from "./polkadot-staking-write.js";
import { BaseAmount, ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";

export const PolkadotRebondRequest = z.object({ kind: z.literal("polkadot_rebond"), ...ON_ACCOUNT, amount: BaseAmount, note: WriteNote.optional() });

/** REBOND: bonds again funds that are unbonding or unbonded. */
export const polkadotRebondWrite = defineWrite({
  kind: "polkadot_rebond",
  identity: { tool: "polkadot_rebond", toolset: "polkadot_staking", title: "Rebond DOT" },
  schema: PolkadotRebondRequest,
  target: "account",
  amountFields: ["amount"],
  plan: (ctx, request, reference) =>
    planPolkadotStaking(ctx, request, reference, {
      title: "polkadot rebond",
      operation: { type: POLKADOT_AMOUNT_OPERATIONS.polkadot_rebond.type, amount: request.amount },
      draws: POLKADOT_AMOUNT_OPERATIONS.polkadot_rebond.draws,
      credits: POLKADOT_AMOUNT_OPERATIONS.polkadot_rebond.credits,
      build: (input) => buildRebondRequest({ ...input, amount: request.amount }),
      summary: (account, currency) => `rebond ${describeAmount(request.amount, currency)} of ${account.name} from unbonding or unbonded funds`,
    }),
});
