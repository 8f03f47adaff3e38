import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { WriteFields } from "../write-fields.js";
import { StakeUidInput } from "./get-solana-stake.js";

export const solanaSplitDeactivateStake = defineWriteTool({
  kind: "solana_split_deactivate_stake",
  description: "Splits an amount off a stake and deactivates the new stake. Dry run first.",
  input: { account: WriteFields.account, stake_uid: StakeUidInput, amount: WriteFields.amount, unit: NetworkUnitCode.Solana },
  on: "account",
  toRequest: (args, { account, currency }) => ({
    kind: "solana_split_deactivate_stake",
    account: account.id,
    stake_uid: args.stake_uid,
    amount: amountField(currency, args.amount, args.unit),
  }),
});
