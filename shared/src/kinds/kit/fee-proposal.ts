import { describeAmount } from "../../units/describe-amount.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { checkMaxFeesAgainstEstimate, maxFeesNotCompared } from "./max-fees-rule.js";
import type { Currency } from "../../schemas/currency.js";
import type { FeeEstimate } from "../../schemas/fee-estimate.js";
import type { TransactionRequest } from "../../schemas/transaction-request.js";
import type { PlanContext } from "./plan-context.js";
import type { NetworkFee } from "./network-fee.js";
import type { BuiltBody } from "./built-body.js";
import { localText, type LocalText } from "../../l10n/translate.js";

/** The service's fee estimate for the would-be request, or why there is none. */
async function estimateFor(ctx: PlanContext, draftBody: TransactionRequest): Promise<{ estimate: FeeEstimate } | { failure: string }> {
  try {
    return { estimate: await ctx.client.estimateFees(draftBody, { signal: ctx.signal }) };
  } catch (error) {
    // A cancelled call is not a failed estimate: the planning stops.
    if (ctx.signal?.aborted) throw error;
    return { failure: (error as Error).message };
  }
}

/**
 * max_fees for a request that gave none: the service's fee estimate proposes a cap. When no
 * estimate can be had, the write is blocked until the caller names max_fees itself.
 */
function proposal(estimated: { estimate: FeeEstimate } | { failure: string }, currency: Currency): { maxFees: bigint | null; finding: Finding } {
  if ("failure" in estimated) {
    return {
      maxFees: null,
      finding: finding(
        "block",
        "MAX_FEES_REQUIRED",
        localText("max_fees was not given and the fee estimate failed ({0}); give max_fees explicitly", estimated.failure),
      ),
    };
  }
  const { estimate } = estimated;
  return {
    maxFees: estimate.max_fees,
    finding: finding(
      "info",
      "MAX_FEES_PROPOSED",
      localText(
        "max_fees was not given: proposing {0} from the service's estimate of {1}",
        describeAmount(estimate.max_fees, currency),
        describeAmount(estimate.fees, currency),
      ),
      {
        estimated_fees: estimate.fees,
        proposed_max_fees: estimate.max_fees,
      },
    ),
  };
}

/**
 * The max_fees to send: the one given, compared with the service's fee estimate for the request's
 * speed (a cap below it blocks, one far above it warns, and one that could not be compared says
 * so); else the estimate's proposal (0 while blocked, with the finding saying why).
 *
 * When confirming (the request carries its correlation_id), a given max_fees is kept without a new
 * estimate: the comparison was shown at the dry run where the person decided, and the confirmed
 * request must not depend on a moving estimate, as for a proposed cap sealed in the token.
 */
export async function settleMaxFees(
  ctx: PlanContext,
  given: bigint | undefined,
  draftBody: (maxFees: bigint) => BuiltBody<TransactionRequest>,
  currency: Currency,
  confirming: boolean,
): Promise<{ maxFees: bigint; proposed: bigint | null; findings: Finding[]; fee: NetworkFee }> {
  if (given !== undefined && confirming)
    return { maxFees: given, proposed: null, findings: [], fee: { unknown: "not estimated again at the confirmation (the dry run showed it)" } };
  // A request the builder refuses is the caller's error, reported by the plan's own finding, not a failed estimate.
  const body = draftBody(0n).body;
  if (body === null) return { maxFees: given ?? 0n, proposed: null, findings: [], fee: { unknown: "the request could not be built" } };
  const estimated = await estimateFor(ctx, body);
  const fee: NetworkFee = "failure" in estimated ? { unknown: `the fee estimate failed (${estimated.failure})` } : { estimated: estimated.estimate.fees };
  if (given === undefined) {
    const proposed = proposal(estimated, currency);
    return { maxFees: proposed.maxFees ?? 0n, proposed: proposed.maxFees, findings: [proposed.finding], fee };
  }
  const compared =
    "failure" in estimated
      ? maxFeesNotCompared(given, currency, estimated.failure)
      : checkMaxFeesAgainstEstimate({ maxFees: given, estimatedFees: estimated.estimate.fees, speed: estimated.estimate.speed, currency });
  return { maxFees: given, proposed: null, findings: [compared], fee };
}

/**
 * The request's fee cap for the plan's amounts and summary: none when none was given and none
 * could be proposed (the 0 a blocked plan carries is no cap, and must not read "max fees 0").
 */
export function settledCap(
  given: bigint | undefined,
  settled: { maxFees: bigint; proposed: bigint | null },
  currency: Currency,
): { amounts: { max_fees?: bigint }; text: LocalText } {
  if (given === undefined && settled.proposed === null) return { amounts: {}, text: localText("no max fees (none given, none could be estimated)") };
  return { amounts: { max_fees: settled.maxFees }, text: localText("max fees {0}", describeAmount(settled.maxFees, currency)) };
}
