import type { Transaction, TransactionHistory } from "@custody/shared";
import { isoWithOffset } from "../clock/timestamps.js";
import { BLOCK_TIME_MS, MIN_CONFIRMATIONS } from "../networks/network-constants.js";
import type { AccountRow, RequestRow, TransactionRow } from "../store/state-types.js";

export function transactionView(transaction: TransactionRow, account: AccountRow, now: number): Transaction {
  const broadcast = transaction.broadcast_on_ms;
  const confirmations = broadcast === null ? 0 : Math.max(0, Math.floor((now - broadcast) / BLOCK_TIME_MS[account.network]));
  const view: Transaction = {
    id: transaction.id,
    account_id: transaction.account_id,
    account_index: account.index,
    amount: transaction.amount,
    max_fees: transaction.max_fees,
    fees: transaction.status === "SUBMITTED" ? transaction.fees : null,
    broadcast_on: broadcast === null ? null : isoWithOffset(broadcast),
    created_on: isoWithOffset(transaction.created_on_ms),
    created_by: transaction.created_by,
    coin_fields: transaction.coin_fields,
    confirmations,
    min_confirmations: MIN_CONFIRMATIONS[account.network],
    currency: account.currency,
    interaction_type: null,
    last_request: transaction.request_id,
    notes: transaction.notes,
    recipient: transaction.recipient,
    speed: transaction.speed,
    status: transaction.status,
    tx_hash: transaction.status === "SUBMITTED" ? transaction.tx_hash : null,
    type: transaction.type,
    uid: null,
    senders: [{ address: account.address, account_id: account.id, account_name: account.name }],
  };
  if (transaction.failure_reason !== null) view.failure_reason = transaction.failure_reason;
  return view;
}

/** One inner array per request: the transaction's CREATE_TRANSACTION request and its status steps. */
export function historyView(request: RequestRow): TransactionHistory {
  const expiredAt = isoWithOffset(request.expired_at_ms);
  return {
    history: [
      request.entries.map((entry) => ({
        id: entry.id,
        created_by: entry.created_by,
        created_on: isoWithOffset(entry.created_on_ms),
        expired_at: expiredAt,
        is_complete: entry.is_complete,
        status: entry.status,
        type: request.type,
      })),
    ],
  };
}
