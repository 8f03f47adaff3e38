import { randomUUID } from "node:crypto";
import type { Tx } from "../../context.js";
import { conflict, forbidden } from "../domain-error.js";
import type { InvitationRow } from "../../store/state-types.js";
import { findWorkspaceUser } from "../lookups.js";

/**
 * Step 2 of registration (control plane): an administrator invites the user with the same
 * username and device identifier as the module's; the workspace issues a UUID.
 */
export function inviteUser(tx: Tx, username: string, deviceId: string, invitedBy: string): InvitationRow {
  const admins = tx.meta().admin_rule.approvers;
  if (!admins.includes(invitedBy)) {
    throw forbidden(
      "NotAnAdministrator",
      `invited_by: ${JSON.stringify(invitedBy)} is not an administrator of the workspace (Admin rule: ${admins.join(", ")})`,
    );
  }
  if (findWorkspaceUser(tx, username)) throw conflict("UserExists", `username: the workspace already has a user named ${JSON.stringify(username)}`);
  const invitation: InvitationRow = {
    uuid: randomUUID(),
    username,
    device_id: deviceId,
    invited_by: invitedBy,
    created_on_ms: tx.now,
    used_on_ms: null,
  };
  tx.put("invitations", invitation.uuid, invitation);
  return invitation;
}
