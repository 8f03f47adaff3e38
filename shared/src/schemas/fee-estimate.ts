import { z } from "zod";
import { BaseUnitsString } from "./primitives.js";
import { Speed } from "./transaction-request.js";

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
