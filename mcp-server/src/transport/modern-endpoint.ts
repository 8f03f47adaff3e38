import { createMcpHandler, isLegacyRequest, PROTOCOL_VERSION_META_KEY, type McpServerFactory } from "@modelcontextprotocol/server";
import { createMcpServer } from "../assembly/create-server.js";
import { isModernRevision } from "../server/protocol-era.js";
import type { ContextSource } from "../server/server-context.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import { serverEventsOf } from "../subscriptions/server-events.js";
import type { Access } from "./request-authorizer.js";

/** Answers the requests of the 2026-07-28 revision: no session, a server per request. */
export interface ModernEndpoint {
  /** Whether a request without a session is one of 2026-07-28: its _meta claims that generation, or the SDK routes it there (a malformed envelope). */
  claims(request: Request, body: unknown): Promise<boolean>;
  answer(request: Request, body: unknown, access: Access): Promise<Response>;
  /** Ends every subscriptions/listen stream with its empty result (a drain: the client listens again elsewhere). */
  endListens(): Promise<void>;
  close(): Promise<void>;
}

export interface ModernEndpointOptions {
  changes: ResourceChanges;
  /** subscriptions/listen streams open at once on this server, everyone's. */
  maxListens: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isListen(body: unknown): boolean {
  return isPlainObject(body) && body.method === "subscriptions/listen";
}

/**
 * A POST of one request or notification (a method, no result or error), not an initialize, whose
 * params' _meta claims a 2026-07-28-generation revision (isModernRevision): the SDK never routes
 * such a body to 2025, so it is claimed without the SDK's classification, which its handler runs
 * again for the answer. A claim naming 2025-11-25 (or anything else) is no 2026 request: on a
 * session it is the session's, as over stdio; without one, the SDK is asked.
 */
export function carriesModernClaim(request: Request, body: unknown): boolean {
  if (request.method !== "POST" || !isPlainObject(body) || "result" in body || "error" in body) return false;
  if (typeof body.method !== "string" || body.method === "initialize" || !isPlainObject(body.params)) return false;
  const meta = body.params._meta;
  return isPlainObject(meta) && isModernRevision(meta[PROTOCOL_VERSION_META_KEY]);
}

/**
 * The SDK's 2026-07-28 entry (server/discover, the _meta envelope, resultType, cache hints with
 * cacheScope "private", Mcp-Method and Mcp-Name checks, the revision's error codes) over the same
 * tools, resources and prompts as a 2025 session, for the person the request's token names. The
 * Host/Origin, token, body size and scope checks have run before (http-server.ts). Listen streams
 * have an entry of their own over the change bus, so a drain can end them and leave the answers
 * under way alone.
 */
export function modernEndpoint(ctx: ContextSource, work: WorkInFlight, log: (line: string) => void, options: ModernEndpointOptions): ModernEndpoint {
  // Each request under way (the access its token was checked for, the method it calls), found again by the Request the SDK hands the factory.
  const requests = new WeakMap<Request, { access: Access; method: unknown }>();
  const factory: McpServerFactory = ({ requestInfo }) => {
    const request = requestInfo === undefined ? undefined : requests.get(requestInfo);
    if (request === undefined) throw new Error("a 2026-07-28 request reached the server without the access its token was checked for");
    return createMcpServer(ctx, { work, person: request.access.person, changes: options.changes, method: request.method });
  };
  const onerror = (error: Error) => log(`2026-07-28 request: ${error.message}`);
  const handler = createMcpHandler(factory, { legacy: "reject", onerror });
  const listens = createMcpHandler(factory, { legacy: "reject", onerror, bus: serverEventsOf(options.changes.bus), maxSubscriptions: options.maxListens });
  return {
    claims: async (request, body) => carriesModernClaim(request, body) || !(await isLegacyRequest(request, body)),
    answer: (request, body, access) => {
      const entry = isListen(body) ? listens : handler;
      requests.set(request, { access, method: isPlainObject(body) ? body.method : undefined });
      // No AuthInfo with the shared bearer token, which names no one.
      return entry.fetch(request, { parsedBody: body, ...(access.authInfo === null ? {} : { authInfo: access.authInfo }) });
    },
    endListens: () => listens.close(),
    close: async () => {
      await listens.close();
      await handler.close();
    },
  };
}
