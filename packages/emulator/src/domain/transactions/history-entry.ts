import type { TransactionStatus } from "@custody/shared";
import type { Tx } from "../../context.js";
import type { RequestRow } from "../../store/state-types.js";

/** The request with an entry for a status it reached. Only PENDING_APPROVAL is not complete. */
export function withEntry(tx: Tx, request: RequestRow, status: TransactionStatus, createdBy: number): RequestRow {
  const entry = { id: tx.nextId("history_entry"), created_by: createdBy, created_on_ms: tx.now, status, is_complete: status !== "PENDING_APPROVAL" };
  return { ...request, status, entries: [...request.entries, entry] };
}
