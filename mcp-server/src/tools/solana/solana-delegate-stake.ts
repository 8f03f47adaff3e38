import { defineWriteTool } from "../write-tool.js";
import { WriteFields } from "../write-fields.js";
import { StakeUidInput } from "./get-solana-stake.js";
import { ValidatorInput } from "./solana-create-stake.js";

export const solanaDelegateStake = defineWriteTool({
  kind: "solana_delegate_stake",
  description: "Delegates a stake's whole balance to a validator, while its actions list delegate. Dry run first.",
  input: { account: WriteFields.account, stake_uid: StakeUidInput, validator: ValidatorInput },
  on: "account",
  toRequest: (args, { account }) => ({ kind: "solana_delegate_stake", account: account.id, stake_uid: args.stake_uid, validator: args.validator }),
});
