import type { Tx } from "../../context.js";
import { badRequest, conflict, notFound } from "../domain-error.js";
import { REQUEST_LIFETIME_MS } from "../../networks/network-constants.js";
import type { RequestRow, UserRow } from "../../store/state-types.js";
import { findModuleUser, findWorkspaceUser } from "../lookups.js";
import { withEntry } from "../transactions/history-entry.js";

/**
 * Step 3: POST /api_users/{name}/register/{uuid}. The invitation must carry the module's name
 * and device identifier. A Create user request governed by the Admin rule now exists; the
 * operator waits in PENDING_APPROVAL until administrators approve it.
 */
export function registerUser(tx: Tx, name: string, uuid: string): UserRow {
  const moduleUser = findModuleUser(tx, name);
  if (!moduleUser) throw notFound(`name: the module has no API user named ${JSON.stringify(name)}; create it first with POST /api_users`);
  const invitation = tx.get("invitations", uuid);
  if (!invitation) throw notFound(`uuid: no invitation ${JSON.stringify(uuid)} exists; an administrator must invite the user first`);
  if (invitation.used_on_ms !== null) throw conflict("InvitationUsed", `uuid: invitation ${uuid} has already been used`);
  if (invitation.username !== name) {
    throw badRequest(
      `name: ${JSON.stringify(name)} differs from the username ${JSON.stringify(invitation.username)} of invitation ${uuid}; they must be identical`,
    );
  }
  if (invitation.device_id.toLowerCase() !== moduleUser.device_id.toLowerCase()) {
    throw badRequest(`uuid: invitation ${uuid} was made for device identifier ${invitation.device_id}, not the module's ${moduleUser.device_id} for ${name}`);
  }
  if (findWorkspaceUser(tx, name)) throw conflict("UserExists", `name: the workspace already has a user named ${JSON.stringify(name)}`);
  const admin = findWorkspaceUser(tx, invitation.invited_by, false);
  const id = tx.nextId("user");
  const requestId = tx.nextId("request");
  const adminRule = tx.meta().admin_rule;
  const request: RequestRow = {
    id: requestId,
    type: "CREATE_USER",
    created_by: admin?.id ?? 0,
    created_on_ms: tx.now,
    expired_at_ms: tx.now + REQUEST_LIFETIME_MS,
    rule: "admin",
    steps: [{ quorum: adminRule.quorum, approvers: adminRule.approvers.map((username) => ({ username, is_api: false })) }],
    approvals: [],
    status: "PENDING_APPROVAL",
    transaction_id: null,
    user_id: id,
    rejected_by: null,
    entries: [],
  };
  tx.put("requests", requestId, withEntry(tx, request, "PENDING_APPROVAL", admin?.id ?? 0));
  const user: UserRow = {
    id,
    username: name,
    is_api: true,
    role: "OPERATOR",
    status: "PENDING_APPROVAL",
    user_id: moduleUser.device_id,
    pub_key: moduleUser.pub_key,
    key_handle: moduleUser.key_handle,
    created_by: admin?.id ?? 0,
    created_on_ms: tx.now,
    last_request: requestId,
  };
  tx.put("users", id, user);
  tx.put("invitations", uuid, { ...invitation, used_on_ms: tx.now });
  return user;
}
