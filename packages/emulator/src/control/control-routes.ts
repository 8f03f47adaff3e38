import type { EmulatorContext } from "../context.js";
import type { Scheduler } from "../domain/scheduler.js";
import { parseBody } from "../http/parse-body.js";
import { RouteTable } from "../http/route-def.js";
import type { SeedName } from "../options.js";
import { addAccountControlRoutes } from "./account-control-routes.js";
import { addClockRoutes, clockState } from "./clock-routes.js";
import { ResetBody } from "./control-schemas.js";
import { addFaultControlRoutes } from "./fault-control-routes.js";
import { plainReply } from "./plain-reply.js";
import { addSeedControlRoutes } from "./seed-control-routes.js";
import { addTransactionControlRoutes } from "./transaction-control-routes.js";
import { addUserControlRoutes } from "./user-control-routes.js";
import { addWebhookControlRoutes } from "./webhook-control-routes.js";

export interface ControlDeps {
  scheduler: Scheduler;
  /** Replaces the whole state with a new seed, in one commit. */
  reset: (seed: SeedName) => Promise<void>;
}

/** The names of the ACTIVE API operators. */
export function activeOperators(ctx: EmulatorContext): string[] {
  return [...ctx.store.values("users")].filter((user) => user.is_api && user.status === "ACTIVE").map((user) => user.username);
}

function summary(ctx: EmulatorContext): Record<string, unknown> {
  return {
    workspace: ctx.store.meta().workspace,
    base_path: ctx.options.basePath,
    processing_delay_ms: ctx.options.processingDelayMs,
    persistent: ctx.options.dataDir !== null,
    operators: activeOperators(ctx),
    accounts: ctx.store.count("accounts"),
    transactions: ctx.store.count("transactions"),
    clock: clockState(ctx),
  };
}

/** Every control-plane endpoint (loopback-only by default; no operator header needed). */
export function controlRoutes(deps: ControlDeps): RouteTable {
  const routes = new RouteTable("none");
  routes.get("/", (ctx) => plainReply(summary(ctx)));
  routes.post("/reset", async (ctx, request) => {
    const body = parseBody(ResetBody, request.body ?? {});
    await deps.reset(body.seed);
    return plainReply(summary(ctx));
  });
  addClockRoutes(routes, deps.scheduler);
  addUserControlRoutes(routes);
  addTransactionControlRoutes(routes);
  addAccountControlRoutes(routes);
  addFaultControlRoutes(routes);
  addWebhookControlRoutes(routes);
  addSeedControlRoutes(routes);
  return routes;
}
