import type { ServerResponse } from "node:http";
import type { RequestId } from "@modelcontextprotocol/server";

/** How an HTTP error answer is framed: its JSON-RPC code (-32000 unless told), the request's id (wire/client-message.ts's echoableId), extra headers. */
export interface ErrorFraming {
  code?: number;
  id?: RequestId | null;
  headers?: Record<string, string>;
}

/** An HTTP error status with a JSON-RPC error body. */
export function replyError(res: ServerResponse, status: number, message: string, framing: ErrorFraming = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...framing.headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: framing.code ?? -32000, message }, id: framing.id ?? null }));
}
