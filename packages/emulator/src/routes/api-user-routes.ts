import { ApiUser, CreateApiUserRequest, HeaderOperatorName, RegistrationResult } from "@custody/shared";
import { z } from "zod";
import { registerUser } from "../domain/operators/register-user.js";
import { createApiUser } from "../domain/operators/create-api-user.js";
import { badRequest } from "../domain/domain-error.js";
import { describeIssues } from "../http/issue-messages.js";
import { parseBody } from "../http/parse-body.js";
import { checkedReply, jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";

const RegisterBody = z.looseObject({ name: z.string().optional() });

/** The module's own endpoints: creating an operator and registering it with its invitation UUID. */
export function addApiUserRoutes(routes: RouteTable): void {
  routes.post(
    "/api_users",
    async (ctx, request) => {
      const body = parseBody(CreateApiUserRequest, request.body);
      return checkedReply(ApiUser, await createApiUser(ctx, body.name));
    },
    "header",
  );

  routes.post(
    "/api_users/:name/register/:uuid",
    async (ctx, request) => {
      const name = request.params.name ?? "";
      const checked = HeaderOperatorName.safeParse(name);
      if (!checked.success) throw badRequest(describeIssues(checked.error, "name"));
      if (request.body !== undefined) {
        const body = parseBody(RegisterBody, request.body);
        if (body.name !== undefined && body.name !== name) {
          throw badRequest(`name: the body names ${JSON.stringify(body.name)} but the path names ${JSON.stringify(name)}; they must be the same`);
        }
      }
      await ctx.commit((tx) => registerUser(tx, name, request.params.uuid ?? ""));
      return jsonReply(RegistrationResult, { success: true });
    },
    "header",
  );
}
