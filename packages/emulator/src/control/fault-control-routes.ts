import { FaultSettings } from "../faults/fault-settings.js";
import { parseBody } from "../http/parse-body.js";
import type { RouteTable } from "../http/route-def.js";
import { plainReply } from "./plain-reply.js";

/** Faults for reliability tests: latency, errors, dropped connections, 420s. */
export function addFaultControlRoutes(routes: RouteTable): void {
  routes.get("/faults", (ctx) => plainReply(ctx.faults.current()));
  routes.put("/faults", (ctx, request) => {
    ctx.faults.set(parseBody(FaultSettings, request.body));
    return plainReply(ctx.faults.current());
  });
  routes.delete("/faults", (ctx) => {
    ctx.faults.clear();
    return plainReply(ctx.faults.current());
  });
}
