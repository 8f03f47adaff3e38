import type { Currency } from "../../schemas/currency.js";
import { describeAmount } from "../../units/describe-amount.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

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
      localText(
        "max_fees {0} is below {1}: it does not cover the network fee, so the service would refuse the " +
          "request or the transaction would fail; give at least the estimate, or omit max_fees to use the " +
          "proposed cap",
        given,
        estimate,
      ),
      facts,
    );
  }
  if (maxFees > estimatedFees * MAX_FEES_FAR_ABOVE_FACTOR) {
    return finding(
      "warn",
      "MAX_FEES_FAR_ABOVE_ESTIMATE",
      localText(
        "max_fees {0} is more than {1} times {2}: the whole cap is held from the available balance until " +
          "broadcast and counts against the local policy's limits",
        given,
        String(MAX_FEES_FAR_ABOVE_FACTOR),
        estimate,
      ),
      facts,
    );
  }
  return finding("info", "MAX_FEES_COVERS_ESTIMATE_OK", localText("max_fees {0} covers {1}", given, estimate), facts);
}

/** The finding when a given max_fees could not be compared with the network fee: never a silent pass. */
export function maxFeesNotCompared(maxFees: bigint, currency: Currency, reason: string): Finding {
  return finding(
    "warn",
    "MAX_FEES_NOT_COMPARED",
    localText(
      "max_fees {0} was not compared with the network fee: the fee estimate failed ({1}); if it is below " +
        "the fee, the service refuses the request or the transaction fails",
      describeAmount(maxFees, currency),
      reason,
    ),
    { max_fees: maxFees },
  );
}
