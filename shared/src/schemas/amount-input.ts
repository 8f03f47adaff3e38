import { z } from "zod";

/** The amount object of transaction requests: `{ value, unit }`, value a number, a string or null. */
export const AmountObject = z.looseObject({
  value: z.union([z.string(), z.number(), z.null()], { error: "must be a string, a number or null" }),
  unit: z.string().min(1, { message: "must name a unit code" }),
});
export type AmountObject = z.infer<typeof AmountObject>;

/**
 * `amount` and `max_fees` of POST /transactions and the approve endpoint: the amount object
 * (Solana and Polkadot examples) or a plain string (Ethereum example).
 */
export const AmountInput = z.union([z.string(), AmountObject], {
  error: "must be a base-unit amount: a decimal string, or an object { value, unit }",
});
export type AmountInput = z.infer<typeof AmountInput>;
