import type { EmulatorContext } from "../context.js";
import type { ApiRequest, RouteAuth } from "./api-request.js";
import type { Reply } from "./reply.js";
import { Router } from "./router.js";

export type RouteHandler = (ctx: EmulatorContext, request: ApiRequest) => Reply | Promise<Reply>;

export interface RouteDef {
  auth: RouteAuth;
  handler: RouteHandler;
}

/** Collects routes: `routes.get("/accounts/:account_id", handler)`; auth defaults to the table's (an ACTIVE operator for the service). */
export class RouteTable {
  readonly router = new Router<RouteDef>();

  constructor(private readonly defaultAuth: RouteAuth = "active") {}

  get(pattern: string, handler: RouteHandler, auth: RouteAuth = this.defaultAuth): this {
    this.router.add("GET", pattern, { auth, handler });
    return this;
  }

  post(pattern: string, handler: RouteHandler, auth: RouteAuth = this.defaultAuth): this {
    this.router.add("POST", pattern, { auth, handler });
    return this;
  }

  put(pattern: string, handler: RouteHandler, auth: RouteAuth = this.defaultAuth): this {
    this.router.add("PUT", pattern, { auth, handler });
    return this;
  }

  delete(pattern: string, handler: RouteHandler, auth: RouteAuth = this.defaultAuth): this {
    this.router.add("DELETE", pattern, { auth, handler });
    return this;
  }
}
