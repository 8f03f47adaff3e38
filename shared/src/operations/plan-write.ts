import { unlessNotFound } from "../client/unless-not-found.js";
import { checkPolicy } from "../policy/policy-checks.js";
import { checkPolicyCurrencies } from "../policy/policy-currencies.js";
import { accountNetwork } from "../schemas/account.js";
import { formatAmount } from "../units/format-units.js";
import type { Note } from "../schemas/primitives.js";
import { newCorrelationId, noteWithReference } from "./correlation-reference.js";
import { assertWriteNote } from "./write-note.js";
import type { PlanContext } from "./plan-context.js";
import { planApproval } from "./plan-approval.js";
import { planEthereumStake } from "./plan-ethereum-stake.js";
import { planPolkadot } from "./plan-polkadot.js";
import { planSend } from "./plan-send.js";
import { planSolanaCreateStake, planSolanaStakeAction } from "./plan-solana-stake.js";
import type { PlannedWrite } from "./planned-write.js";
import type { WriteDraft } from "./write-draft.js";
import type { WriteRequest } from "./write-request.js";

function draft(ctx: PlanContext, request: WriteRequest, note: (title: string) => Note): Promise<WriteDraft> {
  switch (request.kind) {
    case "send":
      return planSend(ctx, request, note("send"));
    case "approve_transaction":
      return planApproval(ctx, request);
    case "solana_create_stake":
      return planSolanaCreateStake(ctx, request);
    case "solana_deactivate_stake":
    case "solana_withdraw_stake":
    case "solana_delegate_stake":
    case "solana_split_stake":
    case "solana_split_deactivate_stake":
      return planSolanaStakeAction(ctx, request);
    case "polkadot_bond_extra":
    case "polkadot_unbond":
    case "polkadot_rebond":
    case "polkadot_withdraw_unbonded":
    case "polkadot_set_payee":
      return planPolkadot(ctx, request, note(request.kind.replace("polkadot_", "polkadot ").replace(/_/g, " ")));
    case "ethereum_stake":
      return planEthereumStake(ctx, request, note("ethereum stake"));
  }
}

/**
 * The one road's surface-independent half: resolve the account, fetch fresh data, build the exact
 * request in base units, run the pre-flight rules, the governance forecast and the local policy.
 * Sends nothing.
 */
export async function planWrite(ctx: PlanContext, request: WriteRequest): Promise<PlannedWrite> {
  const correlationId = request.correlation_id ?? newCorrelationId();
  const userNote = "note" in request ? request.note : undefined;
  if (userNote !== undefined) assertWriteNote(userNote);
  const prepared = await draft(ctx, request, (title) => noteWithReference(userNote, correlationId, title));
  const spent = await ctx.spentLast24h(prepared.currency.name);
  const policyChecks = [
    ...(await checkPolicyCurrencies(ctx.policy, (name) => unlessNotFound(ctx.client.getCurrency(name)))),
    ...checkPolicy(ctx.policy, { currency: prepared.currency, network: accountNetwork(prepared.account), spentLast24h: spent, ...prepared.policy }),
  ];
  const amounts = Object.fromEntries(Object.entries(prepared.amounts).map(([name, value]) => [name, formatAmount(value, prepared.currency)]));
  return {
    kind: request.kind,
    operator: ctx.operator,
    request: { ...request, correlation_id: correlationId },
    account: prepared.account,
    currency: prepared.currency,
    call: prepared.call,
    correlation_id: correlationId,
    amounts,
    checks: [...prepared.checks, ...policyChecks],
    governance: prepared.governance,
    proposed_max_fees: prepared.proposed_max_fees,
    policy_amount: prepared.policy.amount,
    summary: prepared.summary,
    ...(prepared.stake ? { stake: prepared.stake } : {}),
    ...(prepared.transaction ? { transaction: prepared.transaction } : {}),
  };
}
