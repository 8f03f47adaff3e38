import type { TransactionStatus } from "@custody/shared";
import type { Tx } from "../../context.js";
import type { TransactionRow } from "../../store/state-types.js";
import { requireRequest } from "./approve-transaction.js";
import { withEntry } from "./history-entry.js";
import { releaseTransaction } from "./release-transaction.js";

/**
 * Ends a transaction that was not broadcast (REJECTED, EXPIRED, FAILED): nothing moves, its reserve
 * is freed, and fees, broadcast_on and tx_hash stay null, as the spec has them until broadcast.
 */
export function endTransaction(
  tx: Tx,
  row: TransactionRow,
  status: Extract<TransactionStatus, "REJECTED" | "EXPIRED" | "FAILED">,
  by: number,
  details: { rejectedBy?: string; reason?: string } = {},
): TransactionRow {
  const request = requireRequest(tx, row);
  const ended = withEntry(tx, request, status, by);
  tx.put("requests", request.id, { ...ended, rejected_by: details.rejectedBy ?? ended.rejected_by });
  const released = releaseTransaction(tx, row);
  const final: TransactionRow = {
    ...released,
    status,
    fees: null,
    failure_reason: details.reason ?? (status === "EXPIRED" ? "no quorum of approvals within 7 days of creation" : null),
  };
  tx.put("transactions", row.id, final);
  if (status === "FAILED") {
    tx.emit({
      kind: "TRANSACTION_FAILED",
      at_ms: tx.now,
      data: { transaction_id: row.id, account_id: row.account_id, type: row.type, reason: final.failure_reason },
    });
  }
  return final;
}
