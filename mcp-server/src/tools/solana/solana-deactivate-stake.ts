import { defineWriteTool } from "../write-tool.js";
import { WriteFields } from "../write-fields.js";
import { StakeUidInput } from "./get-solana-stake.js";

export const solanaDeactivateStake = defineWriteTool({
  kind: "solana_deactivate_stake",
  description: "Deactivates an activating or activated stake; withdrawable from the next epoch (about 2.5 days). Dry run first.",
  input: { account: WriteFields.account, stake_uid: StakeUidInput },
  on: "account",
  toRequest: (args, { account }) => ({ kind: "solana_deactivate_stake", account: account.id, stake_uid: args.stake_uid }),
});
