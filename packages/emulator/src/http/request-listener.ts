import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorContext } from "../context.js";
import type { FaultDecision } from "../faults/fault-controller.js";
import type { ApiRequest } from "./api-request.js";
import { checkFrontDoor } from "./front-door.js";
import { DomainError, notFound } from "../domain/domain-error.js";
import { HttpError, httpErrorOf } from "./http-error.js";
import { isLoopback } from "./loopback.js";
import { headerOperator, requireActiveOperator, requireHeader, requireKnownOperator } from "./operator-auth.js";
import type { RateLimiter } from "./rate-limiter.js";
import { parseBodyText, readBodyText } from "./read-body.js";
import { errorReply, type Reply } from "./reply.js";
import type { RouteDef, RouteTable } from "./route-def.js";
import type { Router } from "./router.js";
import { writeReply } from "./write-reply.js";

export interface ListenerParts {
  ctx: EmulatorContext;
  api: RouteTable;
  control: RouteTable;
  rateLimiter: RateLimiter | null;
  /** Brings time-driven state up to date (epochs, expiries, signing, broadcast) before a call is handled. */
  catchUp: () => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function rateLimited(retryAfter: number, why: string): HttpError {
  return new HttpError(420, "RateLimited", `${why}; retry after ${retryAfter} s`, { "retry-after": String(retryAfter) });
}

function toReply(error: unknown, ctx: EmulatorContext): Reply {
  if (error instanceof HttpError) return errorReply(error);
  if (error instanceof DomainError) return errorReply(httpErrorOf(error));
  const failure = ctx.store.storageFailure;
  if (failure) {
    ctx.options.log(`storage failure: ${failure.message}`);
    return errorReply(new HttpError(503, "StorageFailure", "the emulator could not write its state; the change was not acknowledged; restart it"));
  }
  ctx.options.log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return errorReply(new HttpError(500, "InternalError", "internal error of the emulator; its log has the details"));
}

function splitUrl(url: string): [string, URLSearchParams] {
  const mark = url.indexOf("?");
  return mark === -1 ? [url, new URLSearchParams()] : [url.slice(0, mark), new URLSearchParams(url.slice(mark + 1))];
}

function below(path: string, prefix: string): string | undefined {
  if (prefix === "") return path;
  if (path === prefix) return "/";
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}

async function dispatch(parts: ListenerParts, router: Router<RouteDef>, request: IncomingMessage, path: string, query: URLSearchParams): Promise<Reply> {
  const { ctx } = parts;
  const method = request.method ?? "GET";
  const bodyText = method === "GET" || method === "HEAD" ? "" : await readBodyText(request);
  const match = router.match(method, path);
  if (!match) throw notFound(`no endpoint ${method} ${path}`);
  if (!("handler" in match)) {
    throw new HttpError(405, "MethodNotAllowed", `${method} is not allowed on ${path}; allowed: ${match.methods.join(", ")}`, {
      allow: match.methods.join(", "),
    });
  }
  const failure = ctx.store.storageFailure;
  if (failure) throw new HttpError(503, "StorageFailure", `the emulator cannot write its state (${failure.message}); restart it`);
  const apiRequest: ApiRequest = {
    method,
    path,
    params: match.params,
    query,
    headers: request.headers,
    body: parseBodyText(bodyText, router === parts.api.router),
    operator: null,
  };
  const def = match.handler;
  parts.catchUp();
  if (def.auth === "active") apiRequest.operator = requireActiveOperator(ctx.store, request.headers);
  else if (def.auth === "known") requireKnownOperator(ctx.store, request.headers);
  else if (def.auth === "header") requireHeader(request.headers);
  const reply = await def.handler(ctx, apiRequest);
  if (method === "GET" || method === "HEAD") await ctx.store.whenDurable();
  return reply;
}

async function serviceCall(parts: ListenerParts, request: IncomingMessage, path: string, query: URLSearchParams): Promise<Reply | null> {
  const method = request.method ?? "GET";
  const fault: FaultDecision = parts.ctx.faults.decide(method, path);
  if (fault.kind === "drop") {
    request.socket.destroy();
    return null;
  }
  if (fault.latencyMs > 0) await sleep(fault.latencyMs);
  if (fault.kind === "error") throw new HttpError(fault.status, "InjectedFault", `fault injected by the control plane: status ${fault.status}`);
  if (fault.kind === "rate_limit") throw rateLimited(fault.retryAfterSeconds, "rate limit (injected by the control plane)");
  if (parts.rateLimiter) {
    const caller = headerOperator(request.headers) ?? request.socket.remoteAddress ?? "anonymous";
    const wait = parts.rateLimiter.take(caller);
    if (wait > 0) throw rateLimited(wait, `rate limit: at most ${parts.rateLimiter.limit} requests per second per operator`);
  }
  const reply = await dispatch(parts, parts.api.router, request, path, query);
  if (fault.kind === "drop_after") {
    request.socket.destroy();
    return null;
  }
  return reply;
}

/** The node:http listener: control plane, service calls under the base path, everything else 404. */
export function createRequestListener(parts: ListenerParts): (request: IncomingMessage, response: ServerResponse) => void {
  const { options } = parts.ctx;
  return (request, response) => {
    const handle = async (): Promise<Reply | null> => {
      checkFrontDoor(request, options);
      const [rawPath, query] = splitUrl(request.url ?? "/");
      const controlPath = below(rawPath, options.controlPath);
      if (controlPath !== undefined) {
        if (!options.controlFromAnyAddress && !isLoopback(request.socket.remoteAddress)) {
          throw new HttpError(403, "ControlPlaneLoopbackOnly", "the control plane answers callers on this machine only");
        }
        return dispatch(parts, parts.control.router, request, controlPath, query);
      }
      const servicePath = below(rawPath, options.basePath);
      if (servicePath === undefined) throw notFound(`nothing at ${rawPath}; the service is under ${options.basePath || "/"}`);
      return serviceCall(parts, request, servicePath, query);
    };
    handle()
      .catch((error: unknown) => toReply(error, parts.ctx))
      .then((reply) => {
        if (reply && !response.headersSent && !request.socket.destroyed) writeReply(response, reply, parts.ctx.clock.now());
      })
      .catch((error: unknown) => parts.ctx.options.log(`could not answer: ${String(error)}`));
  };
}
