import { z } from "zod";
import { AmountInput } from "./amount-input.js";
import { CoinFieldsRequest } from "./coin-fields-request.js";
import { Note } from "./primitives.js";

export const Speed = z.enum(["SLOW", "NORMAL", "FAST", "CUSTOM"], {
  error: "must be one of SLOW, NORMAL, FAST, CUSTOM",
});
export type Speed = z.infer<typeof Speed>;

/** The body of POST /transactions. */
export const TransactionRequest = z.looseObject({
  account_name: z.string().min(1, { message: "must name the account" }),
  amount: AmountInput,
  max_fees: AmountInput,
  recipient: z.string(),
  speed: Speed,
  coin_fields: CoinFieldsRequest.optional(),
  note: Note.optional(),
});
export type TransactionRequest = z.infer<typeof TransactionRequest>;

/** The body of POST /transactions/{transaction_id}/approve: amount and max_fees must match the transaction. */
export const ApproveTransactionRequest = z.looseObject({
  amount: AmountInput,
  max_fees: AmountInput,
  coin_fields: CoinFieldsRequest.optional(),
});
export type ApproveTransactionRequest = z.infer<typeof ApproveTransactionRequest>;
