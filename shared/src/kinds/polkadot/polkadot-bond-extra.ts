import { z } from "zod";
import { buildBondExtraRequest } from "./polkadot-staking-requests.js";
import { describeAmount } from "../kit/plan-context.js";
import { WriteNote } from "../kit/write-note.js";
import { POLKADOT_AMOUNT_OPERATIONS } from "./polkadot-balance-draws.js";
import { planPolkadotStaking } from "./polkadot-staking-write.js";
import { BaseAmount, ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";

export const PolkadotBondExtraRequest = z.object({ kind: z.literal("polkadot_bond_extra"), ...ON_ACCOUNT, amount: BaseAmount, note: WriteNote.optional() });

/** BONDEXTRA: bonds more from the available balance. */
export const polkadotBondExtraWrite = defineWrite({
  kind: "polkadot_bond_extra",
  identity: { tool: "polkadot_bond_extra", toolset: "polkadot_staking", title: "Bond more DOT" },
  schema: PolkadotBondExtraRequest,
  target: "account",
  amountFields: ["amount"],
  plan: (ctx, request, reference) =>
    planPolkadotStaking(ctx, request, reference, {
      title: "polkadot bond extra",
      operation: { type: POLKADOT_AMOUNT_OPERATIONS.polkadot_bond_extra.type, amount: request.amount },
      draws: POLKADOT_AMOUNT_OPERATIONS.polkadot_bond_extra.draws,
      credits: POLKADOT_AMOUNT_OPERATIONS.polkadot_bond_extra.credits,
      build: (input) => buildBondExtraRequest({ ...input, amount: request.amount }),
      summary: (account, currency) => `bond ${describeAmount(request.amount, currency)} more from the available balance of ${account.name}`,
    }),
});
