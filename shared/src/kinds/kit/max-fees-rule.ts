import type { Currency } from "../../schemas/currency.js";
import { describeAmount } from "../../units/describe-amount.js";
import { finding, type Finding } from "../../schemas/finding.js";

/** A fee cap above this many times the network's estimate is flagged. */
export const MAX_FEES_FAR_ABOVE_FACTOR = 10n;

export interface MaxFeesEstimateInput {
  /** The max_fees the caller gave (base units). */
  maxFees: bigint;
  /** The fees the network is expected to take at this speed (the service's estimate, base units). */
  estimatedFees: bigint;
  speed: string;
  currency: Currency;
}

/**
 * A max_fees given by the caller against the service's fee estimate for the chosen speed: below
 * it blocks (the cap does not cover the network fee: the service refuses the request or the
 * transaction fails); above 10 times it warns (the whole cap is held from the available balance
 * until broadcast and counts against the local policy's limits).
 * Codes: MAX_FEES_BELOW_ESTIMATE | MAX_FEES_FAR_ABOVE_ESTIMATE | MAX_FEES_COVERS_ESTIMATE_OK.
 */
export function checkMaxFeesAgainstEstimate(input: MaxFeesEstimateInput): Finding {
  const { maxFees, estimatedFees, speed, currency } = input;
  const facts = { max_fees: maxFees, estimated_fees: estimatedFees, speed };
  const given = describeAmount(maxFees, currency);
  const estimate = `the network fee estimate of ${describeAmount(estimatedFees, currency)} at speed ${speed}`;
  if (maxFees < estimatedFees) {
    return finding(
      "block",
      "MAX_FEES_BELOW_ESTIMATE",
      `max_fees ${given} is below ${estimate}: it does not cover the network fee, so the ` +
        "service would refuse the request or the transaction would fail; give at least the " +
        "estimate, or omit max_fees to use the proposed cap",
      facts,
    );
  }
  if (maxFees > estimatedFees * MAX_FEES_FAR_ABOVE_FACTOR) {
    return finding(
      "warn",
      "MAX_FEES_FAR_ABOVE_ESTIMATE",
      `max_fees ${given} is more than ${MAX_FEES_FAR_ABOVE_FACTOR} times ${estimate}: the whole cap is held from ` +
        "the available balance until broadcast and counts against the local policy's limits",
      facts,
    );
  }
  return finding("info", "MAX_FEES_COVERS_ESTIMATE_OK", `max_fees ${given} covers ${estimate}`, facts);
}

/** The finding when a given max_fees could not be compared with the network fee: never a silent pass. */
export function maxFeesNotCompared(maxFees: bigint, currency: Currency, reason: string): Finding {
  return finding(
    "warn",
    "MAX_FEES_NOT_COMPARED",
    `max_fees ${describeAmount(maxFees, currency)} was not compared with the network ` +
      `fee: the fee estimate failed (${reason}); if it is below the fee, the service ` +
      "refuses the request or the transaction fails",
    { max_fees: maxFees },
  );
}
