import type { IncomingMessage } from "node:http";
import type { Person } from "@custody/shared";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { hasBearerToken } from "./bearer-token.js";

/** Who a request comes from: a signed-in person, or (with the shared bearer token) no one in particular. */
export interface Access {
  /** The token's subject, to which a session belongs; null with the shared bearer token. */
  subject: string | null;
  person: Person | null;
  /** Handed to the MCP handlers as `extra.authInfo` (the SDK's way); null with the shared token. */
  authInfo: AuthInfo | null;
}

/** An answer instead of serving the request. */
export interface Refusal {
  refused: true;
  status: number;
  message: string;
  headers: Record<string, string>;
  /** The tools a refused call named (a write without its scope): the refusal is audited as theirs. */
  tools?: string[];
}

export interface RequestAuthorizer {
  /** Who sent the request, or why it is refused (before its body is read). */
  authenticate(request: IncomingMessage): Promise<Access | Refusal>;
  /** A refusal when the body calls what the access does not cover, else null. */
  authorizeBody(access: Access, body: unknown): Promise<Refusal | null>;
  /** The document served at `path` without a token (the protected resource's metadata), or null. */
  publicDocument(path: string): object | null;
}

/** One user: every request carries the one shared bearer token, which names no one. */
export function sharedTokenAuthorizer(token: string): RequestAuthorizer {
  const refusal: Refusal = {
    refused: true,
    status: 401,
    message: "Unauthorized: send Authorization: Bearer <token>",
    headers: { "WWW-Authenticate": 'Bearer realm="custody-mcp"' },
  };
  const anyone: Access = { subject: null, person: null, authInfo: null };
  return {
    authenticate: (request) => Promise.resolve(hasBearerToken(request, token) ? anyone : refusal),
    authorizeBody: () => Promise.resolve(null),
    publicDocument: () => null,
  };
}
