import { z } from "zod";
import type { Account } from "../../schemas/account.js";
import { describeAmount } from "../../units/describe-amount.js";
import { BaseAmount, ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";
import { WriteNote } from "../kit/write-note.js";
import { POLKADOT_AMOUNT_OPERATIONS } from "./polkadot-balance-draws.js";
import { buildPolkadotAmountRequest } from "./polkadot-staking-requests.js";
import { planPolkadotStaking } from "./polkadot-staking-write.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText, type LocalText } from "../../l10n/translate.js";

export type PolkadotAmountKind = keyof typeof POLKADOT_AMOUNT_OPERATIONS;

/** What the Polkadot amount writes say: everything else about them is POLKADOT_AMOUNT_OPERATIONS' data and one plan. */
const WORDING: Record<PolkadotAmountKind, { summary(amount: string, account: Account): LocalText }> = {
  polkadot_bond_extra: { summary: (amount, account) => localText("bond {0} more from the available balance of {1}", amount, account.name) },
  polkadot_unbond: { summary: (amount, account) => localText("unbond {0} of {1}; it becomes available to withdraw after 28 days", amount, account.name) },
  polkadot_rebond: { summary: (amount, account) => localText("rebond {0} of {1} from unbonding or unbonded funds", amount, account.name) },
};

/** A Polkadot write of an amount (BONDEXTRA, UNBOND, REBOND): an account, an amount, a note. */
export function polkadotAmountWrite<Kind extends PolkadotAmountKind>(kind: Kind) {
  const operation = POLKADOT_AMOUNT_OPERATIONS[kind];
  const wording = WORDING[kind];
  return defineWrite({
    kind,
    identity: WRITE_IDENTITIES[kind],
    schema: z.object({ kind: z.literal(kind), ...ON_ACCOUNT, amount: BaseAmount, note: WriteNote.optional() }),
    target: "account",
    amountFields: ["amount"],
    plan: (ctx, request, reference) =>
      planPolkadotStaking(ctx, request, reference, {
        // "polkadot unbond": the default note's title.
        title: kind.replaceAll("_", " "),
        operation: { type: operation.type, amount: request.amount },
        draws: operation.draws,
        credits: operation.credits,
        build: (input) => buildPolkadotAmountRequest(operation.type, { ...input, amount: request.amount }),
        summary: (account, currency) => wording.summary(describeAmount(request.amount, currency), account),
      }),
  });
}

/** BONDEXTRA: bonds more from the available balance. */
export const polkadotBondExtraWrite = polkadotAmountWrite("polkadot_bond_extra");
/** UNBOND: starts unbonding part of the bonded balance (28 days). */
export const polkadotUnbondWrite = polkadotAmountWrite("polkadot_unbond");
/** REBOND: bonds again funds that are unbonding or unbonded. */
export const polkadotRebondWrite = polkadotAmountWrite("polkadot_rebond");
