import { defineWriteTool } from "../write-tool.js";
import { WriteFields } from "../write-fields.js";
import { StakeUidInput } from "./get-solana-stake.js";

export const solanaWithdrawStake = defineWriteTool({
  kind: "solana_withdraw_stake",
  description: "Withdraws a deactivated stake back to the account. Dry run first.",
  input: { account: WriteFields.account, stake_uid: StakeUidInput },
  on: "account",
  toRequest: (args, { account }) => ({ kind: "solana_withdraw_stake", account: account.id, stake_uid: args.stake_uid }),
});
