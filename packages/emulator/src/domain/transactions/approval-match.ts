import type { ApproveTransactionRequest } from "@custody/shared";
import type { Tx } from "../../context.js";
import { canonicalBytes } from "../../hsm/canonical-bytes.js";
import { badRequest } from "../domain-error.js";
import type { TransactionRow } from "../../store/state-types.js";
import { requireCurrency } from "../lookups.js";
import { parseAmountField } from "./amount-field.js";

const NULL_AMOUNT_TYPES = new Set(["SETPAYEE", "WITHDRAWUNBONDED"]);

function sameJson(a: unknown, b: unknown): boolean {
  return Buffer.from(canonicalBytes(a)).equals(Buffer.from(canonicalBytes(b)));
}

/** The approve endpoint's amount and max_fees (base units only) must equal the transaction's; coin_fields too when given. */
export function checkApprovalMatches(tx: Tx, row: TransactionRow, body: ApproveTransactionRequest): void {
  const account = tx.get("accounts", row.account_id);
  if (!account) throw new Error(`transaction ${row.id} names a missing account`);
  const currency = requireCurrency(tx, account.currency);
  const amount = parseAmountField(body.amount, "amount", currency, NULL_AMOUNT_TYPES.has(row.type)) ?? 0n;
  const maxFees = parseAmountField(body.max_fees, "max_fees", currency, false) ?? 0n;
  if (amount !== row.amount) {
    throw badRequest(`amount: must equal the amount of transaction ${row.id}, ${row.amount} base units, got ${amount}`, "ApprovalMismatch");
  }
  if (maxFees !== row.max_fees) {
    throw badRequest(`max_fees: must equal the max_fees of transaction ${row.id}, ${row.max_fees} base units, got ${maxFees}`, "ApprovalMismatch");
  }
  if (body.coin_fields !== undefined && !sameJson(body.coin_fields, row.coin_fields)) {
    throw badRequest(`coin_fields: must equal the coin_fields of transaction ${row.id} when given`, "ApprovalMismatch");
  }
}
