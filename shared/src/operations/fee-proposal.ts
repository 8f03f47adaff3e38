import type { TransactionRequest } from "../schemas/transaction-request.js";
import { finding, type Finding } from "../rules/finding.js";
import type { Currency } from "../schemas/currency.js";
import type { PlanContext } from "./plan-context.js";
import { describeAmount } from "./plan-context.js";

/**
 * max_fees for a request that gave none: the service's fee estimate proposes a cap. When no
 * estimate can be had, the write is blocked until the caller names max_fees itself.
 */
export async function proposeMaxFees(ctx: PlanContext, draftBody: TransactionRequest, currency: Currency): Promise<{ maxFees: bigint | null; finding: Finding }> {
  try {
    const estimate = await ctx.client.estimateFees(draftBody, { signal: ctx.signal });
    return {
      maxFees: estimate.max_fees,
      finding: finding("info", "MAX_FEES_PROPOSED", `max_fees was not given: proposing ${describeAmount(estimate.max_fees, currency)} from the service's estimate of ${describeAmount(estimate.fees, currency)}`, {
        estimated_fees: estimate.fees,
        proposed_max_fees: estimate.max_fees,
      }),
    };
  } catch (error) {
    return {
      maxFees: null,
      finding: finding("block", "MAX_FEES_REQUIRED", `max_fees was not given and the fee estimate failed (${(error as Error).message}); give max_fees explicitly`),
    };
  }
}

/** The max_fees to send: the one given, else the estimate's proposal (0 while blocked, with the finding saying why). */
export async function settleMaxFees(
  ctx: PlanContext,
  given: bigint | undefined,
  draftBody: (maxFees: bigint) => TransactionRequest,
  currency: Currency,
): Promise<{ maxFees: bigint; proposed: bigint | null; findings: Finding[] }> {
  if (given !== undefined) return { maxFees: given, proposed: null, findings: [] };
  const proposal = await proposeMaxFees(ctx, draftBody(0n), currency);
  return { maxFees: proposal.maxFees ?? 0n, proposed: proposal.maxFees, findings: [proposal.finding] };
}
