import { z } from "zod";
import { buildSplitSolanaStakeRequest } from "./solana-stake-requests.js";
import { describeAmount } from "../../units/describe-amount.js";
import { buildBody } from "../kit/built-body.js";
import { planStakeAction, splitBalances } from "./solana-stake-action.js";
import { BaseAmount, ON_STAKE } from "../kit/request-fields.js";
import { defineWrite, describedDestination } from "../kit/write-spec.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

/** The two splits differ only in these: their action, wording, where the new stake goes and the client call. */
const SPLITS = {
  solana_split_stake: {
    action: "split",
    into: localText("a new stake"),
    summary: (amount: string, uid: string) => localText("split {0} off stake {1} into a new stake", amount, uid),
    send: "splitSolanaStake",
  },
  solana_split_deactivate_stake: {
    action: "split_deactivate",
    into: localText("a new stake, deactivated"),
    summary: (amount: string, uid: string) => localText("split {0} off stake {1} into a new stake and deactivate the new stake", amount, uid),
    send: "splitDeactivateSolanaStake",
  },
} as const;

/** A split of an amount off a stake into a new stake (split), deactivated at once (split_deactivate). */
function solanaSplitWrite<Kind extends keyof typeof SPLITS>(kind: Kind) {
  const split = SPLITS[kind];
  return defineWrite({
    kind,
    identity: WRITE_IDENTITIES[kind],
    schema: z.object({ kind: z.literal(kind), ...ON_STAKE, amount: BaseAmount }),
    target: "account",
    amountFields: ["amount"],
    plan: (ctx, request) =>
      planStakeAction(ctx, request, {
        action: split.action,
        amount: request.amount,
        build: () => buildBody(() => buildSplitSolanaStakeRequest({ amount: request.amount })),
        policy: () => ({ amount: request.amount }),
        into: [describedDestination("into", split.into)],
        summary: (stake, currency) => split.summary(describeAmount(request.amount, currency), stake.uid),
        send: (client, accountId, uid, body, options) => client[split.send](accountId, uid, body, options),
        expected: { amount: request.amount.toString() },
        balances: (stake) => splitBalances(stake, request.amount),
      }),
  });
}

/** Splits an amount off a stake into a new stake. */
export const solanaSplitStakeWrite = solanaSplitWrite("solana_split_stake");
/** Splits an amount off a stake into a new stake and deactivates the new one. */
export const solanaSplitDeactivateStakeWrite = solanaSplitWrite("solana_split_deactivate_stake");
