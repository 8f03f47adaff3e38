import { ClaimsError, personFromClaims, type Person, errorMessage } from "@custody/shared";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { InvalidTokenError } from "./token-refusals.js";
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";
import type { OAuthSettings } from "../config/server-config.js";
import { grantedScopes } from "./custody-scopes.js";
import { KeysUnavailable, type IssuerKeys } from "./issuer-keys.js";

/** Longer is refused before anything parses it (a JWT with hundreds of groups is still far below). */
export const MAX_ACCESS_TOKEN_LENGTH = 16 * 1024;
/** Asymmetric signatures only: a symmetric key would be shared with every other holder, and `none` is no signature. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];
/**
 * RFC 9068's type, the plain JWT that Entra ID and Keycloak put on theirs, or none (some providers
 * set no typ): any other type is another kind of JWT. An ID token, which has a JWT type too, is
 * refused by its audience (the client, not this server).
 */
const TOKEN_TYPES = new Set(["at+jwt", "application/at+jwt", "jwt"]);
const CLOCK_TOLERANCE_SECONDS = 30;

/** A verified access token: who it names, what it grants, and the SDK's view of it for the handlers. */
export interface VerifiedAccess {
  person: Person;
  scopes: string[];
  authInfo: AuthInfo;
}

function audiences(claims: JWTPayload): string[] {
  return typeof claims.aud === "string" ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((aud) => typeof aud === "string") : [];
}

/** Why jose refused a token, in words a client can show; never the token's own text. */
function refusalOf(error: unknown, settings: OAuthSettings): InvalidTokenError | KeysUnavailable {
  if (error instanceof errors.JWTExpired) return new InvalidTokenError("the token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return new InvalidTokenError(`the token was not issued by ${settings.issuer}`);
    if (error.claim === "aud") return new InvalidTokenError(`the token's audience is not this server (${settings.resource})`);
    if (error.claim === "nbf") return new InvalidTokenError("the token is not valid yet (nbf)");
    if (error.reason === "missing") return new InvalidTokenError(`the token has no ${error.claim} claim`);
    return new InvalidTokenError(`the token's ${error.claim} claim is invalid`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new InvalidTokenError("the token's signature does not verify with the issuer's key (forged or altered)");
  if (error instanceof errors.JWKSNoMatchingKey) return new InvalidTokenError("the token is not signed with a key the issuer publishes");
  if (error instanceof errors.JWKSMultipleMatchingKeys) return new InvalidTokenError("the token names no single key of the issuer");
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new InvalidTokenError("the token's signing algorithm is not accepted (asymmetric only: RS, PS, ES, EdDSA)");
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported)
    return new InvalidTokenError("the token is not a well-formed signed JWT");
  if (error instanceof KeysUnavailable) return error;
  // The key set could not be fetched (timeout, refused connection, an answer that is not a key set).
  const why = error instanceof errors.JWKSTimeout ? "no answer in time" : errorMessage(error);
  return new KeysUnavailable(`the authorization server's signing keys could not be fetched (${why})`, 5);
}

/**
 * Checks OAuth 2.1 access tokens as a resource server (MCP authorization, RFC 9068): a JWT signed
 * with an asymmetric key the issuer publishes, its `iss` the issuer, its `aud` this server's
 * resource URL, unexpired (`exp` required, `nbf` honoured, 30 s of clock tolerance), and naming
 * someone (`sub`). Cheap refusals (size, unsigned, symmetric, type, foreign issuer or audience)
 * come before the keys are fetched, so a stranger's token never makes this server call the issuer.
 */
export class AccessTokenVerifier {
  constructor(
    private readonly settings: OAuthSettings,
    private readonly keys: IssuerKeys,
  ) {}

  /** Throws InvalidTokenError (401) or KeysUnavailable (503). */
  async verify(token: string): Promise<VerifiedAccess> {
    if (token.length > MAX_ACCESS_TOKEN_LENGTH) throw new InvalidTokenError(`the token is longer than ${MAX_ACCESS_TOKEN_LENGTH} characters`);
    let header: ReturnType<typeof decodeProtectedHeader>;
    let unverified: JWTPayload;
    try {
      header = decodeProtectedHeader(token);
      unverified = decodeJwt(token);
    } catch {
      throw new InvalidTokenError("the token is not a JWT access token");
    }
    // Fields of a header nobody has verified yet: any JSON at all.
    if (typeof header.alg !== "string" || (header.typ !== undefined && typeof header.typ !== "string"))
      throw new InvalidTokenError("the token's header is malformed (alg and typ must be strings)");
    if (header.alg.toLowerCase() === "none") throw new InvalidTokenError("the token is unsigned (alg none)");
    if (!ALGORITHMS.includes(header.alg)) throw refusalOf(new errors.JOSEAlgNotAllowed("alg"), this.settings);
    if (header.typ !== undefined && !TOKEN_TYPES.has(header.typ.toLowerCase()))
      throw new InvalidTokenError("the token is not a JWT access token (typ must be at+jwt or JWT)");
    if (unverified.iss !== this.settings.issuer) throw new InvalidTokenError(`the token was not issued by ${this.settings.issuer}`);
    if (!audiences(unverified).includes(this.settings.resource))
      throw new InvalidTokenError(`the token's audience is not this server (${this.settings.resource})`);
    let claims: JWTPayload;
    try {
      const keys = await this.keys.keys();
      ({ payload: claims } = await jwtVerify(token, keys, {
        issuer: this.settings.issuer,
        audience: this.settings.resource,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["exp", "sub"],
      }));
    } catch (error) {
      throw refusalOf(error, this.settings);
    }
    let person: Person;
    try {
      person = personFromClaims(claims);
    } catch (error) {
      throw new InvalidTokenError(error instanceof ClaimsError ? error.message : "the token's claims do not name a person");
    }
    const scopes = grantedScopes(claims);
    return {
      person,
      scopes,
      authInfo: {
        token,
        clientId: person.client ?? person.subject,
        scopes,
        expiresAt: claims.exp as number,
        resource: new URL(this.settings.resource),
        extra: { subject: person.subject },
      },
    };
  }
}
