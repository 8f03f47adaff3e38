import { defineWriteTool } from "../../guard/write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const polkadotUnbond = defineWriteTool({
  name: "polkadot_unbond",
  title: "Unbond DOT",
  description:
    "Starts unbonding an amount of the bonded balance (UNBOND); it becomes withdrawable after 28 days. The amount must not exceed the bonded balance. Dry run first.",
  toolset: "polkadot_staking",
  input: { account: WriteFields.account, amount: WriteFields.amount, unit: NetworkUnitCode.Polkadot, note: WriteFields.note },
  on: "account",
  toRequest: (args, { account, currency }) => ({
    kind: "polkadot_unbond",
    account: account.id,
    amount: amountField(currency, args.amount, args.unit),
    note: noteInput(args.note),
  }),
});
