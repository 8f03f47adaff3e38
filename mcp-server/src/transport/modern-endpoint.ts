import { createMcpHandler, isLegacyRequest, type AuthInfo } from "@modelcontextprotocol/server";
import { createMcpServer } from "../server/create-server.js";
import type { ContextSource } from "../server/server-context.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import type { Access } from "./request-authorizer.js";

/** Answers the requests of the 2026-07-28 revision: no session, a server per request. */
export interface ModernEndpoint {
  /** Whether the request is one of 2026-07-28 (it carries the revision's _meta envelope, even a malformed one). */
  claims(request: Request, body: unknown): Promise<boolean>;
  answer(request: Request, body: unknown, access: Access): Promise<Response>;
  close(): Promise<void>;
}

const SHARED_TOKEN: Access = { subject: null, person: null, authInfo: null };

/**
 * The SDK's 2026-07-28 entry (server/discover, the _meta envelope, resultType, cache hints with
 * cacheScope "private", Mcp-Method and Mcp-Name checks, the revision's error codes) over the same
 * tools, resources and prompts as a 2025 session, for the person the request's token names. The
 * Host/Origin, token, body size and scope checks have run before (http-server.ts).
 */
export function modernEndpoint(ctx: ContextSource, work: WorkInFlight, log: (line: string) => void): ModernEndpoint {
  // The access of each request under way, found again by the AuthInfo the SDK hands the factory.
  const accesses = new WeakMap<AuthInfo, Access>();
  const handler = createMcpHandler(
    ({ authInfo }) => {
      // No AuthInfo: the shared bearer token, which names no one.
      const access = authInfo === undefined ? SHARED_TOKEN : accesses.get(authInfo);
      if (access === undefined) throw new Error("a 2026-07-28 request reached the server without the access its token was checked for");
      return createMcpServer(ctx, { work, person: access.person });
    },
    { legacy: "reject", onerror: (error) => log(`2026-07-28 request: ${error.message}`) },
  );
  return {
    claims: async (request, body) => !(await isLegacyRequest(request, body)),
    answer: (request, body, access) => {
      if (access.authInfo === null) return handler.fetch(request, { parsedBody: body });
      accesses.set(access.authInfo, access);
      return handler.fetch(request, { parsedBody: body, authInfo: access.authInfo });
    },
    close: () => handler.close(),
  };
}
