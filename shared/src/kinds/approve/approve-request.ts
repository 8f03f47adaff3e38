import type { CoinFieldsRequest } from "../../schemas/coin-fields-request.js";
import type { Currency } from "../../schemas/currency.js";
import type { Transaction } from "../../schemas/transaction.js";
import { ApproveTransactionRequest } from "../../schemas/transaction-request.js";
import { baseUnit } from "../../units/currency-units.js";
import { amountObject, nullAmountObject } from "../kit/amount-object.js";
import { amountIssue, checkedBody, throwIfIssues } from "../kit/builder-validation.js";

export interface ApproveRequestInput {
  /** Base units as in the transaction; null for the operations without an amount (SETPAYEE, WITHDRAWUNBONDED). */
  amount: bigint | null;
  max_fees: bigint;
  currency: Currency;
  coin_fields?: CoinFieldsRequest;
}

/** Transaction types whose request carries amount { value: null }; their approval does the same. */
export const NO_AMOUNT_TRANSACTION_TYPES: ReadonlySet<string> = new Set(["SETPAYEE", "WITHDRAWUNBONDED"]);

const SUBJECT = "approve request (POST /transactions/{transaction_id}/approve)";

/** The body of POST /transactions/{id}/approve: amount and max_fees as the same amount objects as the transaction's request. */
export function buildApproveRequest(input: ApproveRequestInput): ApproveTransactionRequest {
  throwIfIssues(SUBJECT, [
    input.amount === null ? undefined : amountIssue("amount", input.amount, "non-negative"),
    amountIssue("max_fees", input.max_fees, "non-negative"),
  ]);
  const unit = baseUnit(input.currency).code;
  return checkedBody(SUBJECT, ApproveTransactionRequest, {
    amount: input.amount === null ? nullAmountObject(unit) : amountObject(input.amount, unit),
    max_fees: amountObject(input.max_fees, unit),
    ...(input.coin_fields === undefined ? {} : { coin_fields: input.coin_fields }),
  });
}

/**
 * The approve body for a transaction as the service returned it, so amount and max_fees match it.
 * The currency must be the transaction's (checked by name) so the unit code is right.
 */
export function buildApproveRequestFor(
  transaction: Pick<Transaction, "amount" | "max_fees" | "currency" | "type">,
  currency: Currency,
): ApproveTransactionRequest {
  if (transaction.currency !== currency.name) {
    throwIfIssues(SUBJECT, [{ path: "currency", message: `must be the transaction's currency ${transaction.currency}, got ${currency.name}` }]);
  }
  return buildApproveRequest({
    amount: NO_AMOUNT_TRANSACTION_TYPES.has(transaction.type) ? null : transaction.amount,
    max_fees: transaction.max_fees,
    currency,
  });
}
