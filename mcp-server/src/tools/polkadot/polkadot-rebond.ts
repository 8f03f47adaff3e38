import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const polkadotRebond = defineWriteTool({
  kind: "polkadot_rebond",
  description: "Bonds back unbonding or unbonded funds (REBOND). Dry run first.",
  input: { account: WriteFields.account, amount: WriteFields.amount, unit: NetworkUnitCode.Polkadot, note: WriteFields.note },
  on: "account",
  toRequest: (args, { account, currency }) => ({
    kind: "polkadot_rebond",
    account: account.id,
    amount: amountField(currency, args.amount, args.unit),
    note: noteInput(args.note),
  }),
});
