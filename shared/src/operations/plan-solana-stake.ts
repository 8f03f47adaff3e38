import { buildCreateSolanaStakeRequest, buildDelegateSolanaStakeRequest, buildSplitSolanaStakeRequest } from "../requests/solana-stake-requests.js";
import { checkAddressFormat } from "../rules/address-format-rule.js";
import { checkSolanaCreateStake, checkSolanaStakeAction } from "../rules/solana-stake-rules.js";
import { SOLANA_STAKE_RENT_EXEMPT_RESERVE, type SolanaStakeAction } from "../schemas/solana-stake.js";
import { requireNetwork } from "./account-kind-error.js";
import { withInputFieldNames } from "./input-field-names.js";
import { describeAmount, governanceFor, loadAccount, stakingTransactionRuleFindings, type PlanContext } from "./plan-context.js";
import type { WriteDraft } from "./write-draft.js";
import type { WriteRequestOf } from "./write-request.js";

type StakeActionKind = "solana_deactivate_stake" | "solana_withdraw_stake" | "solana_delegate_stake" | "solana_split_stake" | "solana_split_deactivate_stake";

const ACTION_OF: Record<StakeActionKind, SolanaStakeAction> = {
  solana_deactivate_stake: "deactivate",
  solana_withdraw_stake: "withdraw",
  solana_delegate_stake: "delegate",
  solana_split_stake: "split",
  solana_split_deactivate_stake: "split_deactivate",
};

/** Guided staking, create and delegate: POST /solana/accounts/{id}/stakes under the staking rule. */
export async function planSolanaCreateStake(ctx: PlanContext, request: WriteRequestOf<"solana_create_stake">): Promise<WriteDraft> {
  const { account, currency } = await loadAccount(ctx, request.account);
  requireNetwork(account, "creating a Solana stake", "Solana");
  const governance = governanceFor(account, "staking", ctx.operator);
  return {
    account,
    currency,
    call: { method: "POST", path: `/solana/accounts/${account.id}/stakes`, body: buildCreateSolanaStakeRequest({ amount: request.amount, validator: request.validator }) },
    checks: [
      checkAddressFormat("validator", "Solana", request.validator),
      ...checkSolanaCreateStake({ amount: request.amount, availableBalance: account.available_balance, rentExemptReserve: SOLANA_STAKE_RENT_EXEMPT_RESERVE }),
      ...governance.findings,
      ...stakingTransactionRuleFindings(account, ctx.operator),
    ],
    amounts: { amount: request.amount, available_balance: account.available_balance, rent_exempt_reserve: SOLANA_STAKE_RENT_EXEMPT_RESERVE },
    governance: governance.expectation,
    policy: { amount: request.amount, validator: request.validator },
    proposed_max_fees: null,
    summary: `stake ${describeAmount(request.amount, currency)} from ${account.name} (id ${account.id}) and delegate it to validator ${request.validator}; it activates at the next epoch`,
  };
}

/** An action on an existing stake: POST /solana/accounts/{id}/stakes/{uid}/actions/{action}. */
export async function planSolanaStakeAction(ctx: PlanContext, request: WriteRequestOf<StakeActionKind>): Promise<WriteDraft> {
  const { account, currency } = await loadAccount(ctx, request.account);
  requireNetwork(account, `a Solana stake action`, "Solana");
  // The client names the path segment uid; the write request names it stake_uid.
  const stake = await withInputFieldNames({ uid: "stake_uid" }, () => ctx.client.getSolanaStake(account.id, request.stake_uid, { signal: ctx.signal }));
  const action = ACTION_OF[request.kind];
  const path = `/solana/accounts/${account.id}/stakes/${encodeURIComponent(stake.uid)}/actions/${action}`;
  const state = stake.blockchain_state;
  const total = state.total_balance;
  let body: unknown = null;
  let summary: string;
  let policy: WriteDraft["policy"] = {};
  const amounts: Record<string, bigint> = { total_balance: total, active_balance: state.active_balance, rent_exempt_reserve: state.rent_exempt_reserve };
  switch (request.kind) {
    case "solana_deactivate_stake":
      summary = `deactivate stake ${stake.uid} (${describeAmount(total, currency)}, ${state.status}); it becomes withdrawable at the start of the next epoch`;
      break;
    case "solana_withdraw_stake":
      summary = `withdraw stake ${stake.uid} (${describeAmount(total, currency)}) back to ${account.name}`;
      break;
    case "solana_delegate_stake":
      body = buildDelegateSolanaStakeRequest({ validator: request.validator });
      policy = { amount: total, validator: request.validator };
      summary = `delegate the whole ${describeAmount(total, currency)} of stake ${stake.uid} to validator ${request.validator}`;
      break;
    case "solana_split_stake":
    case "solana_split_deactivate_stake":
      body = buildSplitSolanaStakeRequest({ amount: request.amount });
      amounts.amount = request.amount;
      policy = { amount: request.amount };
      summary = `split ${describeAmount(request.amount, currency)} off stake ${stake.uid} into a new stake${request.kind === "solana_split_deactivate_stake" ? " and deactivate the new stake" : ""}`;
      break;
  }
  const options = "amount" in request ? { amount: request.amount } : {};
  const governance = governanceFor(account, "staking", ctx.operator);
  return {
    account,
    currency,
    call: { method: "POST", path, body },
    checks: [
      ...(request.kind === "solana_delegate_stake" ? [checkAddressFormat("validator", "Solana", request.validator)] : []),
      ...checkSolanaStakeAction(action, stake, options),
      ...governance.findings,
      ...stakingTransactionRuleFindings(account, ctx.operator),
    ],
    amounts,
    governance: governance.expectation,
    policy,
    proposed_max_fees: null,
    summary,
    stake,
  };
}
