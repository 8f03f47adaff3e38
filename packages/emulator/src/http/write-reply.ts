import type { ServerResponse } from "node:http";
import type { Reply } from "./reply.js";

const REASONS: Record<number, string> = { 420: "Enhance Your Calm" };

/**
 * Writes a reply. Its Date header is the simulated clock's (`nowMs`), as a real service writes
 * its own time there: clients date what the service counts from its now (unbonding waiting times,
 * epochs) by it.
 */
export function writeReply(response: ServerResponse, reply: Reply, nowMs: number): void {
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(reply.body),
    date: new Date(nowMs).toUTCString(),
    ...reply.headers,
  };
  const reason = REASONS[reply.status];
  if (reason) response.writeHead(reply.status, reason, headers);
  else response.writeHead(reply.status, headers);
  response.end(reply.body);
}
