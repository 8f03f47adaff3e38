import type { Server } from "@modelcontextprotocol/server";

/** The first revision without sessions, initialize or server-pushed requests. */
export const MODERN_REVISION = "2026-07-28";

/**
 * Whether a revision, as a request names it (a header, a _meta claim, a negotiated version), is of
 * 2026-07-28's generation: a date, not before that revision. The one test of which revisions are
 * modern: a request claiming one is that generation's (stateless), any other claim is no 2026 request.
 */
export function isModernRevision(version: unknown): version is string {
  return typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= MODERN_REVISION;
}

/**
 * Whether the request being answered speaks 2026-07-28 or later: there the server cannot push a
 * request to the client (the person's question is an input-required result instead), whatever
 * capabilities the request's _meta declares.
 */
export function speaksModernEra(session: Server): boolean {
  return isModernRevision(session.getNegotiatedProtocolVersion());
}
