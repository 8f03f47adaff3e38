import { checkAddressFormat } from "../kit/address-format-rule.js";
import { checkSolanaStakeAction } from "./solana-stake-rules.js";
import type { Finding } from "../../schemas/finding.js";
import type { CustodyClient } from "../../client/custody-client.js";
import type { CallOptions } from "../../client/client-options.js";
import type { Currency } from "../../schemas/currency.js";
import { SOLANA_STAKE_ACTION_TYPES, type SolanaStake, type SolanaStakeAction } from "../../schemas/solana-stake.js";
import type { Transaction } from "../../schemas/transaction.js";
import { requireNetwork } from "../kit/account-kind-error.js";
import { givenStake } from "../kit/input-not-found.js";
import { governanceFor, loadAccount, stakingTransactionRuleFindings, type PlanContext } from "../kit/plan-context.js";
import type { AccountReference } from "../kit/request-fields.js";
import { bodyToSend, buildFindings, type BuiltBody } from "../kit/built-body.js";
import type { ExpectedTransaction } from "../kit/lost-answer-fields.js";
import type { Destination, WriteDraft } from "../kit/write-spec.js";
import { balanceChange, type BalanceChange } from "../kit/balance-change.js";
import { checkAmountScale } from "../kit/amount-scale-rule.js";
import { networkFee, sendShapedProbe } from "../kit/network-fee.js";
import { epochClockOf } from "./solana-epoch-reads.js";
import { stakeWithdrawableAt, withdrawableAfterDeactivationAt } from "../../dates/solana-epochs.js";
import type { LocalText } from "../../l10n/translate.js";

/** One stake action's own part; the rest of its plan is the same for every action. */
export interface StakeActionShape<Body> {
  action: SolanaStakeAction;
  /** The split amount, checked against the stake. */
  amount?: bigint;
  /** The new validator of a delegation, checked for its format. */
  validator?: string;
  build(): BuiltBody<Body>;
  /** What the action moves for the local policy's limits, given the stake's total. */
  policy(total: bigint): WriteDraft["policy"];
  summary(stake: SolanaStake, currency: Currency): LocalText;
  /** Where the action sends the stake's funds beyond the stake itself (its validator, a new stake, the account). */
  into: Destination[];
  send(client: CustodyClient, accountId: number, uid: string, body: Body, options: CallOptions): Promise<Transaction>;
  /** What a candidate transaction must show beyond its type and stake account. */
  expected: Pick<ExpectedTransaction, "amount" | "validator">;
  /** The stake's balances the action changes (the account pays the fee on top). */
  balances(stake: SolanaStake): BalanceChange[];
}

/** An action on an existing stake: POST /solana/accounts/{id}/stakes/{uid}/actions/{action}. */
export async function planStakeAction<Body>(
  ctx: PlanContext,
  request: { account: AccountReference; stake_uid: string; correlation_id?: string | undefined },
  shape: StakeActionShape<Body>,
): Promise<WriteDraft> {
  const { account, currency } = await loadAccount(ctx, request.account);
  requireNetwork(account, "a Solana stake action", "Solana");
  // The client names the path segment uid; the write request names it stake_uid.
  const stake = await givenStake(ctx.client, account.id, request.stake_uid, { signal: ctx.signal });
  const state = stake.blockchain_state;
  const built = shape.build();
  const amounts: Record<string, bigint> = shape.amount === undefined ? { total_balance: state.total_balance } : { amount: shape.amount };
  const governance = governanceFor(account, "staking", ctx.operator);
  const confirming = request.correlation_id !== undefined;
  const [fee, epochs] = await Promise.all([
    networkFee(ctx, sendShapedProbe(account, currency, shape.amount ?? state.total_balance, shape.validator ?? state.pub_key), confirming),
    epochClockOf(ctx, account.id),
  ]);
  const when = {
    now: epochs.now,
    withdrawableAt: stakeWithdrawableAt(stake, epochs.clock),
    ifDeactivatedNow: withdrawableAfterDeactivationAt(epochs.now, epochs.clock),
  };
  const paid = "estimated" in fee ? fee.estimated : 0n;
  const deactivates = shape.action === "deactivate" || shape.action === "split_deactivate";
  const checks: Finding[] = [
    ...(shape.validator === undefined ? [] : [checkAddressFormat("validator", "Solana", shape.validator)]),
    ...checkSolanaStakeAction(shape.action, stake, { ...(shape.amount === undefined ? {} : { amount: shape.amount }), when }),
    ...(shape.amount === undefined
      ? []
      : checkAmountScale({ amount: shape.amount, balance: account.balance, fee: "estimated" in fee ? fee.estimated : null, currency })),
    ...buildFindings(built),
    ...governance.findings,
    ...stakingTransactionRuleFindings(account, ctx.operator),
  ];
  return {
    account,
    currency,
    call: { method: "POST", path: `/solana/accounts/${account.id}/stakes/${encodeURIComponent(stake.uid)}/actions/${shape.action}`, body: built.body },
    checks,
    amounts,
    destinations: [{ role: "stake", value: `${stake.uid} (stake account ${state.pub_key})` }, ...shape.into],
    // A withdrawal brings the stake's whole balance back to the account; every action pays its fee from it.
    balances: [
      balanceChange("available_balance", account.available_balance, (shape.action === "withdraw" ? state.total_balance : 0n) - paid),
      ...shape.balances(stake),
    ],
    fee,
    ...(deactivates ? { dates: { withdrawable_at: when.ifDeactivatedNow } } : {}),
    governance: governance.expectation,
    policy: shape.policy(state.total_balance),
    proposed_max_fees: null,
    summary: shape.summary(stake, currency),
    stake,
    send: (client, options) => shape.send(client, account.id, stake.uid, bodyToSend(built), options),
    lostAnswer: {
      by: "new_transactions",
      expected: { operations: [SOLANA_STAKE_ACTION_TYPES[shape.action]], stake_account: state.pub_key, ...shape.expected },
    },
  };
}

/** A split's balances: the source stake gives the amount, the new stake gets it. */
export function splitBalances(stake: SolanaStake, amount: bigint): BalanceChange[] {
  return [balanceChange("stake total_balance", stake.blockchain_state.total_balance, -amount), balanceChange("new stake total_balance", 0n, amount)];
}
