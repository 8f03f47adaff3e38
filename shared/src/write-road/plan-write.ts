import { unlessNotFound } from "../client/unless-not-found.js";
import { checkPolicy } from "../policy/policy-checks.js";
import { checkPolicyCurrencies } from "../policy/policy-currencies.js";
import { accountNetwork } from "../schemas/account.js";
import { formatAmount, formatSignedAmount } from "../units/format-units.js";
import { newCorrelationId } from "../kinds/kit/correlation-reference.js";
import { assertWriteNote } from "../kinds/kit/write-note.js";
import type { PlanContext } from "../kinds/kit/plan-context.js";
import { writeSpec, type WriteRequest } from "../kinds/registry.js";
import type { PlannedWrite } from "./planned-write.js";

/**
 * The road's surface-independent first half: the kind's spec resolves the account, fetches fresh
 * data, builds the exact request in base units and runs its pre-flight rules and the governance
 * forecast; then the local policy. Sends nothing.
 */
export async function planWrite(ctx: PlanContext, request: WriteRequest): Promise<PlannedWrite> {
  const correlationId = request.correlation_id ?? newCorrelationId();
  const userNote = "note" in request ? request.note : undefined;
  if (userNote !== undefined) assertWriteNote(userNote);
  const spec = writeSpec(request.kind);
  const prepared = await spec.planAny(ctx, request, correlationId);
  const currency = prepared.currency.name;
  // Only a daily maximum needs what the scope already committed.
  const sets = await ctx.limitSets(prepared.transaction);
  const limits = await Promise.all(
    sets.map(async (set) => ({ set, spentLast24h: set.limits[currency]?.max_per_day === undefined ? 0n : await ctx.spentLast24h(currency, set.scope) })),
  );
  const policyChecks = [
    ...(await checkPolicyCurrencies(ctx.policy, (name) => unlessNotFound(ctx.client.getCurrency(name)))),
    ...checkPolicy(ctx.policy, { currency: prepared.currency, network: accountNetwork(prepared.account), limits, ...prepared.policy }, ctx.role),
  ];
  const shown = (value: bigint) => formatAmount(value, prepared.currency);
  const amounts = Object.fromEntries(Object.entries(prepared.amounts).map(([name, value]) => [name, shown(value)]));
  return {
    kind: request.kind,
    identity: spec.identity,
    operator: ctx.operator,
    person: ctx.person,
    request: { ...request, correlation_id: correlationId },
    account: prepared.account,
    currency: prepared.currency,
    call: prepared.call,
    correlation_id: correlationId,
    amounts,
    destinations: prepared.destinations,
    balances: prepared.balances.map((change) => ({
      name: change.name,
      before: formatSignedAmount(change.before, prepared.currency),
      after: formatSignedAmount(change.after, prepared.currency),
    })),
    fee: "estimated" in prepared.fee ? { estimated: shown(prepared.fee.estimated) } : prepared.fee,
    dates: Object.fromEntries(Object.entries(prepared.dates ?? {}).map(([name, at]) => [name, at.toISOString()])),
    checks: [...prepared.checks, ...policyChecks],
    governance: prepared.governance,
    proposed_max_fees: prepared.proposed_max_fees,
    policy_amount: prepared.policy.amount,
    summary: prepared.summary,
    send: prepared.send,
    lostAnswer: prepared.lostAnswer,
    ...(prepared.stake ? { stake: prepared.stake } : {}),
    ...(prepared.transaction ? { transaction: prepared.transaction } : {}),
  };
}
