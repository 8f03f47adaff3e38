import type { Tx } from "../../context.js";
import type { TransactionRow } from "../../store/state-types.js";
import { requireRequest } from "../transactions/approve-transaction.js";
import { endTransaction } from "../transactions/end-transaction.js";
import { withEntry } from "../transactions/history-entry.js";
import { releaseTransaction } from "../transactions/release-transaction.js";
import { applyEffect } from "./apply-effect.js";
import type { BroadcastEnv } from "./broadcast-env.js";

/**
 * SIGNED to SUBMITTED: the network applies the transaction, the fees are charged, and
 * broadcast_on, fees and tx_hash are filled in. A transaction the network refuses is FAILED:
 * it moves nothing and charges nothing.
 */
export function broadcastTransaction(tx: Tx, row: TransactionRow, env: BroadcastEnv): TransactionRow {
  const released = releaseTransaction(tx, row);
  const account = tx.get("accounts", row.account_id);
  if (!account) throw new Error(`transaction ${row.id} names a missing account ${row.account_id}`);
  const outcome = applyEffect(tx, released, account, env);
  if (!outcome.ok) return endTransaction(tx, released, "FAILED", row.created_by, { reason: outcome.reason });
  const submitted: TransactionRow = { ...released, status: "SUBMITTED", fees: row.fee_due, broadcast_on_ms: tx.now };
  tx.put("transactions", row.id, submitted);
  tx.put("requests", row.request_id, withEntry(tx, requireRequest(tx, row), "SUBMITTED", row.created_by));
  tx.emit({
    kind: "TRANSACTION_BROADCAST",
    at_ms: tx.now,
    data: {
      transaction_id: row.id,
      account_id: row.account_id,
      type: row.type,
      amount: row.amount.toString(),
      fees: row.fee_due.toString(),
      tx_hash: submitted.tx_hash,
      status: "SUBMITTED",
    },
  });
  return submitted;
}
