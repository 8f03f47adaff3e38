import type { Tx } from "../../context.js";
import { conflict, notFound } from "../domain-error.js";
import type { UserRow } from "../../store/state-types.js";
import { findWorkspaceUser } from "../lookups.js";

export type StatusChange = "suspend" | "revoke" | "reactivate";

const EVENTS: Record<StatusChange, string> = { suspend: "SUSPEND_USER", revoke: "REVOKE_USER", reactivate: "REACTIVATE_USER" };

/** Suspends, revokes (final) or reactivates (a suspended) user, as an administrator may at any time. */
export function changeUserStatus(tx: Tx, username: string, change: StatusChange): UserRow {
  const user = findWorkspaceUser(tx, username);
  if (!user) throw notFound(`no user named ${JSON.stringify(username)} exists in the workspace`);
  if (user.status === "REVOKED") throw conflict("UserRevoked", `user ${JSON.stringify(username)} is revoked; revocation is final`);
  let status: UserRow["status"];
  if (change === "reactivate") {
    if (user.status !== "SUSPENDED")
      throw conflict("NotSuspended", `user ${JSON.stringify(username)} is ${user.status}; only a SUSPENDED user can be reactivated`);
    status = "ACTIVE";
  } else {
    status = change === "suspend" ? "SUSPENDED" : "REVOKED";
    if (change === "suspend" && user.status !== "ACTIVE")
      throw conflict("NotActive", `user ${JSON.stringify(username)} is ${user.status}; only an ACTIVE user can be suspended`);
  }
  const next = { ...user, status };
  tx.put("users", user.id, next);
  tx.emit({ kind: EVENTS[change], at_ms: tx.now, data: { user_id: user.id, username, is_api: user.is_api } });
  return next;
}
