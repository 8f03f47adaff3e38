import { z } from "zod";
import { BaseUnitsString } from "./primitives.js";
import { AmountInput } from "./amount-input.js";
import { Speed, TransactionRequest } from "./transaction-request.js";

/** POST /transactions/fees: a transaction request whose max_fees may be left out (it is what the caller wants to learn). */
export const FeeEstimateRequest = TransactionRequest.extend({ max_fees: AmountInput.optional() });
export type FeeEstimateRequest = z.infer<typeof FeeEstimateRequest>;

/** POST /transactions/fees: the estimate for a would-be transaction (the emulator's shape). */
export const FeeEstimate = z.looseObject({
  account_id: z.int(),
  currency: z.string(),
  speed: Speed,
  /** The fees the network is expected to take. */
  fees: BaseUnitsString,
  /** A cap to send as max_fees: the estimate with headroom for fee movements. */
  max_fees: BaseUnitsString,
});
export type FeeEstimate = z.infer<typeof FeeEstimate>;
