import type { OAuthSettings } from "../config/server-config.js";
import { InsufficientScopeError, InvalidTokenError } from "../oauth/token-refusals.js";
import { AccessTokenVerifier, MAX_ACCESS_TOKEN_LENGTH } from "../oauth/access-token-verifier.js";
import { bearerTokenOf } from "./bearer-token.js";
import { READ_SCOPE, WRITE_SCOPE } from "../oauth/custody-scopes.js";
import { IssuerKeys, KeysUnavailable } from "../oauth/issuer-keys.js";
import { protectedResourceMetadata, protectedResourceMetadataPaths, protectedResourceMetadataUrl } from "./protected-resource-metadata.js";
import type { Access, Refusal, RequestAuthorizer } from "./request-authorizer.js";
import { bearerChallenge, writeCallsIn } from "./scope-challenge.js";

/**
 * MCP authorization (revision 2025-11-25) on the HTTP transport: this server is an OAuth 2.1
 * resource server. Every request needs an access token the issuer signed for this server's public
 * URL with `custody:read`; a call of a tool that may change something also needs `custody:write`.
 * The token stays here: the custody service is reached with the server's own credentials.
 */
export function oauthAuthorizer(settings: OAuthSettings, log: (line: string) => void, keys = new IssuerKeys(settings.issuer, log)): RequestAuthorizer {
  const verifier = new AccessTokenVerifier(settings, keys);
  const resourceMetadata = protectedResourceMetadataUrl(settings.resource);
  const metadataPaths = protectedResourceMetadataPaths(settings.resource);
  const document = protectedResourceMetadata(settings);

  const refusal = (status: number, message: string, headers: Record<string, string>): Refusal => ({ refused: true, status, message, headers });
  const unauthorized = (error?: InvalidTokenError): Refusal =>
    refusal(
      401,
      error === undefined
        ? `Unauthorized: send Authorization: Bearer <an access token from ${settings.issuer}>`
        : `Unauthorized: invalid_token: ${error.message}`,
      {
        "WWW-Authenticate": bearerChallenge({ resourceMetadata, ...(error === undefined ? {} : { error: "invalid_token", description: error.message }) }),
      },
    );
  const insufficient = (error: InsufficientScopeError): Refusal =>
    refusal(403, `Forbidden: insufficient_scope: ${error.message}`, {
      "WWW-Authenticate": bearerChallenge({ resourceMetadata, error: "insufficient_scope", description: error.message }),
    });

  return {
    async authenticate(request) {
      const header = request.headers.authorization;
      if (header !== undefined && header.length > MAX_ACCESS_TOKEN_LENGTH + 16)
        return unauthorized(new InvalidTokenError(`the token is longer than ${MAX_ACCESS_TOKEN_LENGTH} characters`));
      const token = bearerTokenOf(request);
      if (token === null) return unauthorized(header === undefined ? undefined : new InvalidTokenError("send the token as Authorization: Bearer <token>"));
      try {
        const verified = await verifier.verify(token);
        if (!verified.scopes.includes(READ_SCOPE))
          return insufficient(new InsufficientScopeError(`this server needs the ${READ_SCOPE} scope, which this token does not grant`));
        const access: Access = { subject: verified.person.subject, person: verified.person, authInfo: verified.authInfo };
        return access;
      } catch (error) {
        if (error instanceof InvalidTokenError) return unauthorized(error);
        if (error instanceof KeysUnavailable)
          return refusal(503, `Service unavailable: a token cannot be checked now: ${error.message}`, { "Retry-After": String(error.retryAfterSeconds) });
        // Whatever else a hostile token trips over is still a token that was not accepted.
        return unauthorized(new InvalidTokenError("the token could not be checked"));
      }
    },

    async authorizeBody(access, body) {
      if (access.authInfo === null || access.authInfo.scopes.includes(WRITE_SCOPE)) return null;
      const writes = await writeCallsIn(body);
      if (writes.length === 0) return null;
      return {
        ...insufficient(new InsufficientScopeError(`calling ${writes.join(", ")} needs the ${WRITE_SCOPE} scope, which this token does not grant`)),
        tools: writes,
      };
    },

    publicDocument: (path) => (metadataPaths.has(path) ? document : null),
  };
}
