import { boundedText, INPUT_LIMITS } from "@custody/shared";
import { defineWriteTool } from "../write-tool.js";
import { amountField, optionalAmountField } from "../amount-input.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const createTransaction = defineWriteTool({
  kind: "send",
  description: "Sends funds from an account to an address. Without confirmation_token a dry run (nothing sent); the token it gives submits once.",
  input: {
    account: WriteFields.account,
    recipient: boundedText(INPUT_LIMITS.address).describe("Destination address"),
    amount: WriteFields.amount,
    unit: WriteFields.unit,
    max_fees: WriteFields.max_fees,
    max_fees_unit: WriteFields.max_fees_unit,
    speed: WriteFields.speed,
    note: WriteFields.note,
  },
  on: "account",
  toRequest(args, { account, currency }) {
    return {
      kind: "send",
      account: account.id,
      recipient: args.recipient,
      amount: amountField(currency, args.amount, args.unit),
      max_fees: optionalAmountField(currency, args.max_fees, args.max_fees_unit, "max_fees", "max_fees_unit"),
      speed: args.speed,
      note: noteInput(args.note),
    };
  },
});
