import { z } from "zod";
import { boundedText, INPUT_LIMITS } from "../../schemas/input-limits.js";
import { buildEthereumStakingRequest } from "./contract-interaction-request.js";
import { checkEthereumStake } from "./ethereum-stake-rules.js";
import { checkContractCall } from "./contract-call-rules.js";
import { checkAmountScale } from "../kit/amount-scale-rule.js";
import { Speed } from "../../schemas/transaction-request.js";
import { requireNetwork } from "../kit/account-kind-error.js";
import { noteWithReference } from "../kit/correlation-reference.js";
import { cappedTransaction, transactionDraft } from "../kit/transaction-draft.js";
import { withInputFieldNames } from "../kit/input-field-names.js";
import { governanceFor, loadAccount } from "../kit/plan-context.js";
import { describeAmount } from "../../units/describe-amount.js";
import { WriteNote } from "../kit/write-note.js";
import { buildBody, buildFindings } from "../kit/built-body.js";
import { WriteAddress, BaseAmount, ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";
import { balanceChange } from "../kit/balance-change.js";
import { contractCallDestinations } from "./contract-call-destinations.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const EthereumStakeRequest = z.object({
  kind: z.literal("ethereum_stake"),
  ...ON_ACCOUNT,
  amount: BaseAmount,
  max_fees: BaseAmount.optional(),
  contract: WriteAddress,
  contract_data: boundedText(INPUT_LIMITS.contract_data).min(1),
  speed: Speed.default("NORMAL"),
  note: WriteNote.optional(),
});

/** The builder's names of the request's fields that are named differently in the write request. */
const BUILDER_FIELDS = { contract_address: "contract" };

/** Ethereum staking: POST /transactions calling the provider's contract, under the smart-contract rule. */
export const ethereumStakeWrite = defineWrite({
  kind: "ethereum_stake",
  identity: WRITE_IDENTITIES.ethereum_stake,
  schema: EthereumStakeRequest,
  target: "account",
  amountFields: ["amount", "max_fees"],
  proposesMaxFees: true,
  async plan(ctx, request, reference) {
    const { account, currency } = await loadAccount(ctx, request.account);
    requireNetwork(account, "Ethereum staking", "Ethereum");
    const note = noteWithReference(request.note, reference, "ethereum stake");
    const build = (maxFees: bigint) =>
      buildBody(() =>
        withInputFieldNames(BUILDER_FIELDS, () =>
          buildEthereumStakingRequest({
            account_name: account.name,
            contract_address: request.contract,
            contract_data: request.contract_data,
            amount: request.amount,
            max_fees: maxFees,
            speed: request.speed,
            currency,
            note,
          }),
        ),
      );
    const capped = await cappedTransaction(ctx, request, currency, build);
    const { built, maxFees: fees, fee } = capped;
    const checks = capped.findings;
    checks.push(
      ...checkEthereumStake({
        balance: account.balance,
        currency,
        recipient: request.contract,
        contractData: request.contract_data,
        amount: request.amount,
        maxFees: fees,
        availableBalance: account.available_balance,
      }),
      ...checkContractCall({
        contract: request.contract,
        contractData: request.contract_data,
        whitelist: account.governance_rules?.smart_contract?.whitelist,
        allowedContracts: ctx.policy.allowed_contracts,
        accountAddress: account.address,
        allowedRecipients: ctx.policy.allowed_recipients,
      }),
      ...buildFindings(built),
      ...checkAmountScale({ amount: request.amount, balance: account.balance, fee: "estimated" in fee ? fee.estimated : null, currency }),
    );
    const governance = governanceFor(account, "smart_contract", ctx.operator);
    checks.push(...governance.findings);
    return {
      account,
      currency,
      checks,
      destinations: contractCallDestinations(request.contract, request.contract_data),
      amounts: capped.amounts,
      balances: [balanceChange("available_balance", account.available_balance, -(request.amount + fees))],
      fee,
      governance: governance.expectation,
      policy: { amount: request.amount + fees, contract: request.contract },
      proposed_max_fees: capped.proposed,
      summary: localText(
        "stake {0} from {1} (id {2}) through the contract {3}, {4}",
        describeAmount(request.amount, currency),
        account.name,
        account.id,
        request.contract,
        capped.capText,
      ),
      ...transactionDraft(built, {
        amount: request.amount.toString(),
        recipient: { network: "Ethereum", address: request.contract },
        contract_data: request.contract_data,
      }),
    };
  },
});
