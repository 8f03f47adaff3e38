import type { IncomingMessage } from "node:http";
import { sameSecret } from "@custody/shared";

/** The token of `Authorization: Bearer <token>`, or null when the request carries none. */
export function bearerTokenOf(request: Pick<IncomingMessage, "headers">): string | null {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Whether the request carries `Authorization: Bearer <token>`; compared in constant time. */
export function hasBearerToken(request: Pick<IncomingMessage, "headers">, token: string): boolean {
  const sent = bearerTokenOf(request);
  return sent !== null && sameSecret(sent, token);
}
