import { createMcpHandler, isLegacyRequest, type AuthInfo, type McpServerFactory } from "@modelcontextprotocol/server";
import { createMcpServer } from "../assembly/create-server.js";
import type { ContextSource } from "../server/server-context.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import { serverEventsOf } from "../subscriptions/server-events.js";
import type { Access } from "./request-authorizer.js";

/** Answers the requests of the 2026-07-28 revision: no session, a server per request. */
export interface ModernEndpoint {
  /** Whether the request is one of 2026-07-28 (it carries the revision's _meta envelope, even a malformed one). */
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

const SHARED_TOKEN: Access = { subject: null, person: null, authInfo: null };

export function isListen(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { method?: unknown }).method === "subscriptions/listen";
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
  // The access of each request under way, found again by the AuthInfo the SDK hands the factory.
  const accesses = new WeakMap<AuthInfo, Access>();
  const factory: McpServerFactory = ({ authInfo }) => {
    // No AuthInfo: the shared bearer token, which names no one.
    const access = authInfo === undefined ? SHARED_TOKEN : accesses.get(authInfo);
    if (access === undefined) throw new Error("a 2026-07-28 request reached the server without the access its token was checked for");
    return createMcpServer(ctx, { work, person: access.person, changes: options.changes });
  };
  const onerror = (error: Error) => log(`2026-07-28 request: ${error.message}`);
  const handler = createMcpHandler(factory, { legacy: "reject", onerror });
  const listens = createMcpHandler(factory, { legacy: "reject", onerror, bus: serverEventsOf(options.changes.bus), maxSubscriptions: options.maxListens });
  return {
    claims: async (request, body) => !(await isLegacyRequest(request, body)),
    answer: (request, body, access) => {
      const entry = isListen(body) ? listens : handler;
      if (access.authInfo === null) return entry.fetch(request, { parsedBody: body });
      accesses.set(access.authInfo, access);
      return entry.fetch(request, { parsedBody: body, authInfo: access.authInfo });
    },
    endListens: () => listens.close(),
    close: async () => {
      await listens.close();
      await handler.close();
    },
  };
}
