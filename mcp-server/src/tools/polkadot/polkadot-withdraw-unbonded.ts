import { defineWriteTool } from "../../guard/write-tool.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const polkadotWithdrawUnbonded = defineWriteTool({
  name: "polkadot_withdraw_unbonded",
  title: "Withdraw unbonded DOT",
  description:
    "Moves all unbonded funds to the available balance (WITHDRAWUNBONDED); blocked when nothing is unbonded. Dry run first.",
  toolset: "polkadot_staking",
  input: { account: WriteFields.account, note: WriteFields.note },
  on: "account",
  toRequest: (args, { account }) => ({ kind: "polkadot_withdraw_unbonded", account: account.id, note: noteInput(args.note) }),
});
