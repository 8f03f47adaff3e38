import type { ServerResponse } from "node:http";
import type { Reply } from "./reply.js";

const REASONS: Record<number, string> = { 420: "Enhance Your Calm" };

export function writeReply(response: ServerResponse, reply: Reply): void {
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(reply.body),
    ...reply.headers,
  };
  const reason = REASONS[reply.status];
  if (reason) response.writeHead(reply.status, reason, headers);
  else response.writeHead(reply.status, headers);
  response.end(reply.body);
}
