import { UserPage } from "@custody/shared";
import { paginate, readPageRequest } from "../http/pagination.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import { userRecord } from "../views/user-view.js";

/** GET /users: every user of the workspace, humans and API operators, in id order. */
export function addUserRoutes(routes: RouteTable): void {
  routes.get("/users", (ctx, request) => {
    const page = readPageRequest(request.query);
    const users = [...ctx.store.values("users")].sort((a, b) => a.id - b.id).map(userRecord);
    return jsonReply(UserPage, paginate(users, page));
  });
}
