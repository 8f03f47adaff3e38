import { evaluateRule } from "@custody/shared";
import type { Tx } from "../../context.js";
import { conflict, forbidden } from "../domain-error.js";
import type { RequestRow, TransactionRow } from "../../store/state-types.js";
import { requireTransaction } from "../lookups.js";
import { ruleName } from "./governance-check.js";
import { withEntry } from "./history-entry.js";

export interface Approver {
  username: string;
  is_api: boolean;
  /** The approver's user id, or 0 for a human approver who has no user record. */
  user_id: number;
}

export function requireRequest(tx: Tx, row: TransactionRow): RequestRow {
  const request = tx.get("requests", row.request_id);
  if (!request) throw new Error(`transaction ${row.id} has no request ${row.request_id}`);
  return request;
}

function requirePending(row: TransactionRow): void {
  if (row.status !== "PENDING_APPROVAL") {
    throw conflict("NotPendingApproval", `transaction ${row.id} is ${row.status}, not PENDING_APPROVAL: there is nothing to approve or reject`);
  }
}

function requireListed(request: RequestRow, approver: Approver): void {
  const listed = request.steps.some((step) => step.approvers.some((member) => member.username === approver.username && member.is_api === approver.is_api));
  if (!listed) {
    const who = approver.is_api ? "operator" : "user";
    throw forbidden(
      "NotInGovernanceRule",
      `${who} ${JSON.stringify(approver.username)} is not an approver in any step of the ${ruleName(request.rule)} that governs request ${request.id}`,
    );
  }
}

/**
 * Records an approval. When every step of the rule has its quorum the transaction becomes
 * APPROVED. `check` runs before anything changes (the approve endpoint compares amounts there).
 */
export function approveTransaction(tx: Tx, transactionId: number, approver: Approver, check: (row: TransactionRow) => void = () => undefined): TransactionRow {
  const row = requireTransaction(tx, transactionId);
  requirePending(row);
  const request = requireRequest(tx, row);
  requireListed(request, approver);
  if (request.approvals.some((approval) => approval.username === approver.username)) {
    throw conflict("AlreadyApproved", `${JSON.stringify(approver.username)} has already approved request ${request.id} of transaction ${row.id}`);
  }
  check(row);
  const approvals = [...request.approvals, { username: approver.username, is_api: approver.is_api, approved_on_ms: tx.now }];
  const satisfied = evaluateRule(
    { creators: [], steps: request.steps },
    approvals.map((approval) => approval.username),
  ).is_satisfied;
  if (!satisfied) {
    tx.put("requests", request.id, { ...request, approvals });
    return row;
  }
  tx.put("requests", request.id, withEntry(tx, { ...request, approvals }, "APPROVED", approver.user_id));
  const approved: TransactionRow = { ...row, status: "APPROVED", approved_on_ms: tx.now };
  tx.put("transactions", row.id, approved);
  return approved;
}
