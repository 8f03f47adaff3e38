import { boundedText, INPUT_LIMITS } from "@custody/shared";
import { defineWriteTool } from "../write-tool.js";
import { amountField, NetworkUnitCode, optionalAmountField } from "../amount-input.js";
import { noteInput, WriteFields } from "../write-fields.js";

export const ethereumStake = defineWriteTool({
  kind: "ethereum_stake",
  description: "Stakes ETH through a provider's contract (32 ETH each; smart-contract rule). Dry run first.",
  input: {
    account: WriteFields.account,
    contract: boundedText(INPUT_LIMITS.address).describe("Staking provider's contract address"),
    contract_data: boundedText(INPUT_LIMITS.contract_data).describe("Hex call data of the deposit"),
    amount: WriteFields.amount,
    unit: NetworkUnitCode.Ethereum,
    max_fees: WriteFields.max_fees,
    max_fees_unit: WriteFields.max_fees_unit,
    speed: WriteFields.speed,
    note: WriteFields.note,
  },
  on: "account",
  toRequest: (args, { account, currency }) => ({
    kind: "ethereum_stake",
    account: account.id,
    contract: args.contract,
    contract_data: args.contract_data,
    amount: amountField(currency, args.amount, args.unit),
    max_fees: optionalAmountField(currency, args.max_fees, args.max_fees_unit, "max_fees", "max_fees_unit"),
    speed: args.speed,
    note: noteInput(args.note),
  }),
});
