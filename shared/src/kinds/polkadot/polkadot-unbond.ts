import { z } from "zod";
import { buildUnbondRequest } from "./polkadot-staking-requests.js";
import { describeAmount } from "../kit/plan-context.js";
import { WriteNote } from "../kit/write-note.js";
import { POLKADOT_AMOUNT_OPERATIONS } from "./polkadot-balance-draws.js";
import { planPolkadotStaking } from "./polkadot-staking-write.js";
import { BaseAmount, ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";

export const PolkadotUnbondRequest = z.object({ kind: z.literal("polkadot_unbond"), ...ON_ACCOUNT, amount: BaseAmount, note: WriteNote.optional() });

/** UNBOND: starts unbonding part of the bonded balance (28 days). */
export const polkadotUnbondWrite = defineWrite({
  kind: "polkadot_unbond",
  identity: { tool: "polkadot_unbond", toolset: "polkadot_staking", title: "Unbond DOT" },
  schema: PolkadotUnbondRequest,
  target: "account",
  amountFields: ["amount"],
  plan: (ctx, request, reference) =>
    planPolkadotStaking(ctx, request, reference, {
      title: "polkadot unbond",
      operation: { type: POLKADOT_AMOUNT_OPERATIONS.polkadot_unbond.type, amount: request.amount },
      draws: POLKADOT_AMOUNT_OPERATIONS.polkadot_unbond.draws,
      credits: POLKADOT_AMOUNT_OPERATIONS.polkadot_unbond.credits,
      build: (input) => buildUnbondRequest({ ...input, amount: request.amount }),
      summary: (account, currency) => `unbond ${describeAmount(request.amount, currency)} of ${account.name}; it becomes available to withdraw after 28 days`,
    }),
});
