import type { WriteKind } from "@custody/shared";
import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { WriteFields } from "../write-fields.js";
import { StakeUidInput } from "./get-solana-stake.js";
import { ValidatorInput } from "./solana-create-stake.js";

/** An action on a whole stake: an account and a stake's uid. */
function wholeStakeTool(kind: Extract<WriteKind, "solana_deactivate_stake" | "solana_withdraw_stake">, description: string) {
  return defineWriteTool({
    kind,
    description,
    input: { account: WriteFields.account, stake_uid: StakeUidInput },
    on: "account",
    toRequest: (args, { account }) => ({ kind, account: account.id, stake_uid: args.stake_uid }),
  });
}

/** A split of an amount off a stake: an account, a stake's uid and an amount in SOL or lamports. */
function splitTool(kind: Extract<WriteKind, "solana_split_stake" | "solana_split_deactivate_stake">, description: string) {
  return defineWriteTool({
    kind,
    description,
    input: { account: WriteFields.account, stake_uid: StakeUidInput, amount: WriteFields.amount, unit: NetworkUnitCode.Solana },
    on: "account",
    toRequest: (args, { account, currency }) => ({
      kind,
      account: account.id,
      stake_uid: args.stake_uid,
      amount: amountField(currency, args.amount, args.unit),
    }),
  });
}

export const solanaDeactivateStake = wholeStakeTool(
  "solana_deactivate_stake",
  "Deactivates an activating or activated stake; withdrawable from the next epoch (about 2.5 days). Dry run first.",
);
export const solanaWithdrawStake = wholeStakeTool("solana_withdraw_stake", "Withdraws a deactivated stake back to the account. Dry run first.");
export const solanaSplitStake = splitTool(
  "solana_split_stake",
  "Splits an amount off a stake into a new stake; both keep the rent-exempt reserve. Dry run first.",
);
export const solanaSplitDeactivateStake = splitTool(
  "solana_split_deactivate_stake",
  "Splits an amount off a stake and deactivates the new stake. Dry run first.",
);

export const solanaDelegateStake = defineWriteTool({
  kind: "solana_delegate_stake",
  description: "Delegates a stake's whole balance to a validator, while its actions list delegate. Dry run first.",
  input: { account: WriteFields.account, stake_uid: StakeUidInput, validator: ValidatorInput },
  on: "account",
  toRequest: (args, { account }) => ({ kind: "solana_delegate_stake", account: account.id, stake_uid: args.stake_uid, validator: args.validator }),
});
