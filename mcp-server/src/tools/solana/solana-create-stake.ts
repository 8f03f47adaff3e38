import { boundedText, INPUT_LIMITS } from "@custody/shared";
import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode } from "../amount-input.js";
import { WriteFields } from "../write-fields.js";

export const ValidatorInput = boundedText(INPUT_LIMITS.address).describe("Validator vote address");

export const solanaCreateStake = defineWriteTool({
  kind: "solana_create_stake",
  description: "Stakes SOL from an account, delegated to a validator; above the rent-exempt reserve. Dry run first.",
  input: { account: WriteFields.account, amount: WriteFields.amount, unit: NetworkUnitCode.Solana, validator: ValidatorInput },
  on: "account",
  toRequest: (args, { account, currency }) => ({
    kind: "solana_create_stake",
    account: account.id,
    amount: amountField(currency, args.amount, args.unit),
    validator: args.validator,
  }),
});
