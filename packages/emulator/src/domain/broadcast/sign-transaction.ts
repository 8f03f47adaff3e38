import type { Tx } from "../../context.js";
import { canonicalBytes } from "../../hsm/canonical-bytes.js";
import type { Hsm } from "../../hsm/hsm.js";
import type { AccountRow, TransactionRow } from "../../store/state-types.js";
import { requireRequest } from "../transactions/approve-transaction.js";
import { withEntry } from "../transactions/history-entry.js";

/** The HSM key of an account. */
export function accountKeyId(accountId: number): string {
  return `account:${accountId}`;
}

/** The approved transaction as the HSM signs it. */
export function signingPayload(row: TransactionRow, account: AccountRow): Uint8Array {
  return canonicalBytes({
    transaction_id: row.id,
    request_id: row.request_id,
    network: account.network,
    currency: account.currency,
    from: account.address,
    type: row.type,
    amount: row.amount,
    max_fees: row.max_fees,
    recipient: row.recipient,
    speed: row.speed,
    coin_fields: row.coin_fields,
    approved_on_ms: row.approved_on_ms,
  });
}

/** APPROVED to SIGNED: the HSM signs the canonical bytes; the hash is kept until broadcast. */
export function signTransaction(tx: Tx, hsm: Hsm, row: TransactionRow): TransactionRow {
  const account = tx.get("accounts", row.account_id);
  if (!account) throw new Error(`transaction ${row.id} names a missing account ${row.account_id}`);
  const signed = hsm.sign(account.network, accountKeyId(account.id), signingPayload(row, account));
  const next: TransactionRow = { ...row, status: "SIGNED", signed_on_ms: tx.now, tx_hash: signed.tx_hash };
  tx.put("transactions", row.id, next);
  tx.put("requests", row.request_id, withEntry(tx, requireRequest(tx, row), "SIGNED", row.created_by));
  return next;
}
