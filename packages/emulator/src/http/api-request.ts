import type { IncomingHttpHeaders } from "node:http";
import type { UserRow } from "../store/state-types.js";

export interface ApiRequest {
  method: string;
  /** The path below the base path (or below the control prefix). */
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as exact JSON; undefined when there was none. */
  body: unknown;
  /** The ACTIVE operator calling, on routes that require one. */
  operator: UserRow | null;
}

/**
 * Who may call a route: an ACTIVE operator; any operator the module knows; anyone naming
 * themselves in the header; anyone (the control plane, which is loopback-only).
 */
export type RouteAuth = "active" | "known" | "header" | "none";
