import { UserRecord } from "@custody/shared";
import { approveUser } from "../domain/operators/approve-user.js";
import { changeUserStatus, type StatusChange } from "../domain/operators/change-user-status.js";
import { inviteUser } from "../domain/operators/invite-user.js";
import { badRequest, notFound } from "../domain/domain-error.js";
import { parseBody } from "../http/parse-body.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import { userRecord } from "../views/user-view.js";
import { AdminApprovalBody, AdminRuleBody, InvitationBody } from "./control-schemas.js";
import { plainReply } from "./plain-reply.js";

const CHANGES: readonly StatusChange[] = ["suspend", "revoke", "reactivate"];

/** The administrators' side of operator registration, and user status changes. */
export function addUserControlRoutes(routes: RouteTable): void {
  routes.post("/invitations", async (ctx, request) => {
    const body = parseBody(InvitationBody, request.body);
    const invitation = await ctx.commit((tx) => inviteUser(tx, body.username, body.device_id, body.invited_by));
    return plainReply({ uuid: invitation.uuid, username: invitation.username, device_id: invitation.device_id, invited_by: invitation.invited_by });
  });

  routes.post("/users/:username/approve", async (ctx, request) => {
    const body = parseBody(AdminApprovalBody, request.body);
    const user = await ctx.commit((tx) => approveUser(tx, request.params.username ?? "", body.admin));
    return jsonReply(UserRecord, userRecord(user));
  });

  routes.post("/users/:username/:change", async (ctx, request) => {
    const change = request.params.change as StatusChange;
    if (!CHANGES.includes(change)) throw notFound(`no user action ${JSON.stringify(request.params.change)}; actions are approve, ${CHANGES.join(", ")}`);
    const user = await ctx.commit((tx) => changeUserStatus(tx, request.params.username ?? "", change));
    return jsonReply(UserRecord, userRecord(user));
  });

  routes.get("/admin-rule", (ctx) => plainReply(ctx.store.meta().admin_rule));

  routes.put("/admin-rule", async (ctx, request) => {
    const body = parseBody(AdminRuleBody, request.body);
    if (body.quorum > body.approvers.length) {
      throw badRequest(`quorum: ${body.quorum} is more than the ${body.approvers.length} approvers listed`);
    }
    await ctx.commit((tx) => tx.putMeta({ ...tx.meta(), admin_rule: { quorum: body.quorum, approvers: body.approvers } }));
    return plainReply(ctx.store.meta().admin_rule);
  });
}
