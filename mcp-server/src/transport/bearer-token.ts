import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A fresh bearer token for the HTTP transport: 256 random bits. */
export function newBearerToken(): string {
  return randomBytes(32).toString("base64url");
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Whether the request carries `Authorization: Bearer <token>`; compared in constant time. */
export function hasBearerToken(request: Pick<IncomingMessage, "headers">, token: string): boolean {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && match[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}
