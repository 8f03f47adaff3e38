import { RequestStatus } from "@custody/shared";
import { pathId } from "../domain/lookups.js";
import { notFound } from "../domain/domain-error.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import { requestStatusView } from "../views/request-status-view.js";

/** GET /requests/{request_id}/status: the governance steps of a request, their quorum and who approved. */
export function addRequestRoutes(routes: RouteTable): void {
  routes.get("/requests/:request_id/status", (ctx, request) => {
    const id = pathId(request.params.request_id, "request");
    const row = ctx.store.get("requests", id);
    if (!row) throw notFound(`request ${id} does not exist`);
    if (!RequestStatus.shape.rule.safeParse(row.rule).success) {
      throw notFound(`request ${id} is a ${row.type} request under the ${row.rule} rule; its status is not served by this endpoint`);
    }
    return jsonReply(RequestStatus, requestStatusView(row));
  });
}
