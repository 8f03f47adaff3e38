import { AmountInput, TransactionRequest } from "@custody/shared";

/** POST /transactions/fees: a transaction request whose max_fees may be left out (it is what the caller wants to learn). */
export const FeeEstimateRequest = TransactionRequest.extend({ max_fees: AmountInput.optional() });
