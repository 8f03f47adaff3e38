import { buildEthereumStakingRequest } from "../requests/contract-interaction-request.js";
import { checkEthereumStake } from "../rules/ethereum-stake-rules.js";
import type { Note } from "../schemas/primitives.js";
import { requireNetwork } from "./account-kind-error.js";
import { settleMaxFees } from "./fee-proposal.js";
import { withInputFieldNames } from "./input-field-names.js";
import { describeAmount, governanceFor, loadAccount, type PlanContext } from "./plan-context.js";
import type { WriteDraft } from "./write-draft.js";
import type { WriteRequestOf } from "./write-request.js";

/** The builder's names of the request's fields that are named differently in the write request. */
const BUILDER_FIELDS = { contract_address: "contract" };

/** Ethereum staking: POST /transactions calling the provider's contract, under the smart-contract rule. */
export async function planEthereumStake(ctx: PlanContext, request: WriteRequestOf<"ethereum_stake">, note: Note): Promise<WriteDraft> {
  const { account, currency } = await loadAccount(ctx, request.account);
  requireNetwork(account, "Ethereum staking", "Ethereum");
  const build = (maxFees: bigint) =>
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
    );
  const { maxFees: fees, proposed, findings: checks } = await settleMaxFees(ctx, request.max_fees, build, currency, request.correlation_id !== undefined);
  checks.push(
    ...checkEthereumStake({
      balance: account.balance,
      currency,
      recipient: request.contract,
      contractData: request.contract_data,
      amount: request.amount,
      maxFees: fees,
      availableBalance: account.available_balance,
      whitelist: account.governance_rules?.smart_contract?.whitelist,
    }),
  );
  const governance = governanceFor(account, "smart_contract", ctx.operator);
  checks.push(...governance.findings);
  return {
    account,
    currency,
    call: { method: "POST", path: "/transactions", body: build(fees) },
    checks,
    amounts: { amount: request.amount, max_fees: fees, balance: account.balance, available_balance: account.available_balance },
    governance: governance.expectation,
    policy: { amount: request.amount + fees, contract: request.contract },
    proposed_max_fees: proposed,
    summary: `stake ${describeAmount(request.amount, currency)} from ${account.name} (id ${account.id}) through the contract ${request.contract}, max fees ${describeAmount(fees, currency)}`,
  };
}
