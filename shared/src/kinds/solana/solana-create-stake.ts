import { z } from "zod";
import { buildCreateSolanaStakeRequest } from "./solana-stake-requests.js";
import { checkAddressFormat } from "../kit/address-format-rule.js";
import { checkSolanaCreateStake } from "./solana-stake-rules.js";
import { checkAmountScale } from "../kit/amount-scale-rule.js";
import { networkFee, sendShapedProbe } from "../kit/network-fee.js";
import { nextEpochAt } from "./solana-epoch-reads.js";
import { SOLANA_STAKE_RENT_EXEMPT_RESERVE } from "../../schemas/solana-stake.js";
import { requireNetwork } from "../kit/account-kind-error.js";
import { governanceFor, loadAccount, stakingTransactionRuleFindings } from "../kit/plan-context.js";
import { describeAmount } from "../../units/describe-amount.js";
import { bodyToSend, buildBody, buildFindings } from "../kit/built-body.js";
import { WriteAddress, BaseAmount, ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";
import { balanceChange } from "../kit/balance-change.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const SolanaCreateStakeRequest = z.object({ kind: z.literal("solana_create_stake"), ...ON_ACCOUNT, amount: BaseAmount, validator: WriteAddress });

/** Guided staking, create and delegate: POST /solana/accounts/{id}/stakes under the staking rule. */
export const solanaCreateStakeWrite = defineWrite({
  kind: "solana_create_stake",
  identity: WRITE_IDENTITIES.solana_create_stake,
  schema: SolanaCreateStakeRequest,
  target: "account",
  amountFields: ["amount"],
  async plan(ctx, request) {
    const { account, currency } = await loadAccount(ctx, request.account);
    requireNetwork(account, "creating a Solana stake", "Solana");
    const governance = governanceFor(account, "staking", ctx.operator);
    const built = buildBody(() => buildCreateSolanaStakeRequest({ amount: request.amount, validator: request.validator }));
    const fee = await networkFee(ctx, sendShapedProbe(account, currency, request.amount, request.validator), request.correlation_id !== undefined);
    const estimated = "estimated" in fee ? fee.estimated : undefined;
    return {
      account,
      currency,
      call: { method: "POST", path: `/solana/accounts/${account.id}/stakes`, body: built.body },
      checks: [
        checkAddressFormat("validator", "Solana", request.validator),
        ...checkSolanaCreateStake({
          amount: request.amount,
          availableBalance: account.available_balance,
          rentExemptReserve: SOLANA_STAKE_RENT_EXEMPT_RESERVE,
          ...(estimated === undefined ? {} : { maxFees: estimated }),
        }),
        ...checkAmountScale({ amount: request.amount, balance: account.balance, fee: estimated ?? null, currency }),
        ...buildFindings(built),
        ...governance.findings,
        ...stakingTransactionRuleFindings(account, ctx.operator),
      ],
      amounts: { amount: request.amount, rent_exempt_reserve: SOLANA_STAKE_RENT_EXEMPT_RESERVE },
      destinations: [{ role: "validator", value: request.validator }],
      balances: [
        balanceChange("available_balance", account.available_balance, -(request.amount + (estimated ?? 0n))),
        balanceChange("new stake total_balance", 0n, request.amount),
      ],
      fee,
      dates: { activates_at: await nextEpochAt(ctx, account.id) },
      governance: governance.expectation,
      policy: { amount: request.amount, validator: request.validator },
      proposed_max_fees: null,
      summary: localText(
        "stake {0} from {1} (id {2}) and delegate it to validator {3}; it activates at the next epoch",
        describeAmount(request.amount, currency),
        account.name,
        account.id,
        request.validator,
      ),
      send: (client, options) => client.createSolanaStake(account.id, bodyToSend(built), options),
      lostAnswer: {
        by: "new_transactions",
        expected: { operations: ["STAKE_CREATE_DELEGATE"], amount: request.amount.toString(), validator: request.validator },
      },
    };
  },
});
