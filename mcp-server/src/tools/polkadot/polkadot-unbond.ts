import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const polkadotUnbond = defineWriteTool({
  kind: "polkadot_unbond",
  description: "Unbonds part of the bonded balance (UNBOND); withdrawable after 28 days. Dry run first.",
  input: { account: WriteFields.account, amount: WriteFields.amount, unit: NetworkUnitCode.Polkadot, note: WriteFields.note },
  on: "account",
  toRequest: (args, { account, currency }) => ({
    kind: "polkadot_unbond",
    account: account.id,
    amount: amountField(currency, args.amount, args.unit),
    note: noteInput(args.note),
  }),
});
