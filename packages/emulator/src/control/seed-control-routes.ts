import { parseBody } from "../http/parse-body.js";
import type { RouteTable } from "../http/route-def.js";
import { seedScale } from "../seed/scale-seed.js";
import { ScaleSeedBody } from "./control-schemas.js";
import { plainReply } from "./plain-reply.js";

/** POST /seed/scale: adds a large workspace (accounts and transactions) in a few commits, for scale tests and demos. */
export function addSeedControlRoutes(routes: RouteTable): void {
  routes.post("/seed/scale", async (ctx, request) => {
    const body = parseBody(ScaleSeedBody, request.body ?? {});
    return plainReply(await seedScale(ctx, body));
  });
}
