import { defineWriteTool } from "../write-tool.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const polkadotWithdrawUnbonded = defineWriteTool({
  kind: "polkadot_withdraw_unbonded",
  description: "Moves all unbonded funds to the available balance (WITHDRAWUNBONDED). Dry run first.",
  input: { account: WriteFields.account, note: WriteFields.note },
  on: "account",
  toRequest: (args, { account }) => ({ kind: "polkadot_withdraw_unbonded", account: account.id, note: noteInput(args.note) }),
});
