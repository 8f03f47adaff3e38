import {
  accountNetwork,
  AccountKindError,
  buildContractInteractionRequest,
  buildSendRequest,
  describeAmount,
  formatAmount,
  Speed,
  withInputFieldNames,
  type ContractInteractionInput,
  type TransactionRequest,
  boundedText,
  INPUT_LIMITS,
} from "@custody/shared";
import { z } from "zod";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { AmountText, UnitCode, amountField } from "../amount-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { AmountView, toolOutput } from "../tool-output.js";

/** A contract call's body; shared's builder calls the contract `contract_address`, this tool's field is `recipient`. */
function contractCallBody(input: ContractInteractionInput): TransactionRequest {
  return withInputFieldNames({ contract_address: "recipient" }, () => buildContractInteractionRequest(input));
}

export const estimateFees = defineTool({
  name: "estimate_fees",
  title: "Estimate fees",
  description: "Estimates the fees of a would-be send or contract call and proposes a max_fees cap, both units. Sends nothing.",
  toolset: "read",
  input: {
    account: AccountInput,
    amount: AmountText,
    unit: UnitCode,
    recipient: boundedText(INPUT_LIMITS.address).describe("Destination, or the contract called"),
    speed: Speed.optional(),
    contract_data: boundedText(INPUT_LIMITS.contract_data).optional().describe("Hex call data of a contract call"),
  },
  output: toolOutput({ fees: AmountView, max_fees: AmountView, speed: z.string(), currency: z.string() }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { account, currency } = await accountWithCurrency(call, args.account);
    const amount = amountField(currency, args.amount, args.unit);
    const network = accountNetwork(account);
    if (!network) throw new AccountKindError(account, "a fee estimate", ["Solana", "Polkadot", "Ethereum"]);
    const common = { account_name: account.name, amount, max_fees: 0n, speed: args.speed ?? "NORMAL", currency };
    const body =
      args.contract_data === undefined
        ? buildSendRequest({ ...common, network, recipient: args.recipient })
        : contractCallBody({ ...common, contract_address: args.recipient, contract_data: args.contract_data });
    const estimate = await call.ctx.client.estimateFees(body, { signal: call.signal });
    return {
      structured: {
        fees: formatAmount(estimate.fees, currency),
        max_fees: formatAmount(estimate.max_fees, currency),
        speed: estimate.speed,
        currency: estimate.currency,
      },
      text: `estimated fees ${describeAmount(estimate.fees, currency)}; proposed max_fees ${describeAmount(estimate.max_fees, currency)} (${estimate.speed})`,
    };
  },
});
