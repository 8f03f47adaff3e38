import type { IncomingMessage } from "node:http";
import { sameSecret } from "@custody/shared";

/** Whether the request carries `Authorization: Bearer <token>`; compared in constant time. */
export function hasBearerToken(request: Pick<IncomingMessage, "headers">, token: string): boolean {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && match[1] !== undefined && sameSecret(match[1], token);
}
