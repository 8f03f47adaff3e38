import type { ServerResponse } from "node:http";
import type { RequestId } from "@modelcontextprotocol/server";

/** How an HTTP error answer is framed: its JSON-RPC code (-32000 unless told), the request's id, extra headers. */
export interface ErrorFraming {
  code?: number;
  id?: RequestId | null;
  headers?: Record<string, string>;
}

/**
 * The id an error answer to this body echoes: a single request's string or number id. A batch, a
 * notification, a response, a body not read or not JSON has none to echo (null), and only then
 * is an error's id null (2026-07-28 requires every error to carry its request's id).
 */
export function echoedRequestId(body: unknown): RequestId | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? id : null;
}

/** An HTTP error status with a JSON-RPC error body. */
export function replyError(res: ServerResponse, status: number, message: string, framing: ErrorFraming = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...framing.headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: framing.code ?? -32000, message }, id: framing.id ?? null }));
}
