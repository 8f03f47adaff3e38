import type { Tx } from "../../context.js";
import { conflict, forbidden, notFound } from "../domain-error.js";
import type { UserRow } from "../../store/state-types.js";
import { findWorkspaceUser } from "../lookups.js";
import { withEntry } from "../transactions/history-entry.js";

/** Step 4 (control plane): an administrator approves the Create user request; at the Admin rule's quorum the operator is ACTIVE. */
export function approveUser(tx: Tx, username: string, admin: string): UserRow {
  const user = findWorkspaceUser(tx, username, true);
  if (!user) throw notFound(`no API operator named ${JSON.stringify(username)} is registered in the workspace`);
  const request = tx.get("requests", user.last_request);
  if (user.status !== "PENDING_APPROVAL" || !request || request.status !== "PENDING_APPROVAL") {
    throw conflict("NotPendingApproval", `operator ${JSON.stringify(username)} is ${user.status}, not waiting for approval`);
  }
  const rule = tx.meta().admin_rule;
  if (!rule.approvers.includes(admin)) {
    throw forbidden("NotAnAdministrator", `admin: ${JSON.stringify(admin)} is not an approver of the Admin rule (${rule.approvers.join(", ")})`);
  }
  if (request.approvals.some((approval) => approval.username === admin)) {
    throw conflict("AlreadyApproved", `${JSON.stringify(admin)} has already approved the registration of ${JSON.stringify(username)}`);
  }
  const approvals = [...request.approvals, { username: admin, is_api: false, approved_on_ms: tx.now }];
  const adminUser = findWorkspaceUser(tx, admin, false);
  if (approvals.length < rule.quorum) {
    tx.put("requests", request.id, { ...request, approvals });
    return user;
  }
  tx.put("requests", request.id, withEntry(tx, { ...request, approvals }, "APPROVED", adminUser?.id ?? 0));
  const active: UserRow = { ...user, status: "ACTIVE" };
  tx.put("users", user.id, active);
  tx.emit({ kind: "ADD_USER", at_ms: tx.now, data: { user_id: user.id, username, is_api: true, role: user.role } });
  return active;
}
