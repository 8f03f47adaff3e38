import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const polkadotBondExtra = defineWriteTool({
  kind: "polkadot_bond_extra",
  description: "Bonds more of the available balance (BONDEXTRA). Dry run first.",
  input: { account: WriteFields.account, amount: WriteFields.amount, unit: NetworkUnitCode.Polkadot, note: WriteFields.note },
  on: "account",
  toRequest: (args, { account, currency }) => ({
    kind: "polkadot_bond_extra",
    account: account.id,
    amount: amountField(currency, args.amount, args.unit),
    note: noteInput(args.note),
  }),
});
