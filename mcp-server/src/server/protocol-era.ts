import type { Server } from "@modelcontextprotocol/server";

/** The first revision without sessions, initialize or server-pushed requests. */
export const MODERN_REVISION = "2026-07-28";

/**
 * Whether the request being answered speaks 2026-07-28 or later: there the server cannot push a
 * request to the client (the person's question is an input-required result instead), whatever
 * capabilities the request's _meta declares.
 */
export function speaksModernEra(session: Server): boolean {
  const version = session.getNegotiatedProtocolVersion();
  return version !== undefined && version >= MODERN_REVISION;
}
