import { Health, LATEST_API_VERSION, LATEST_MODULE_VERSION } from "@custody/shared";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";

const HEALTHY: Health = { status: "OK", module_version: LATEST_MODULE_VERSION, api_version: LATEST_API_VERSION };

/** GET /_health: connectivity check; an operator unknown to the module gets 400. */
export function addHealthRoutes(routes: RouteTable): void {
  routes.get("/_health", () => jsonReply(Health, HEALTHY), "known");
}
