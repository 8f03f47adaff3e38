import { z } from "zod";
import { serviceUrlProblem } from "../config/server-config.js";
import { fetchBounded, type FetchLimits } from "./bounded-fetch.js";
import { OPTIONS } from "../config/options.js";

/** An authorization server's metadata is a few KiB; a JSON Web Key Set a few keys. */
export const METADATA_LIMITS: FetchLimits = { maxBytes: 256 * 1024, timeoutMs: 5_000 };

/** What this server reads of the issuer's metadata: its identifier, to compare, where its keys are, and where the confirmation page signs people in. */
const IssuerMetadataDocument = z.looseObject({
  issuer: z.string().max(2048),
  jwks_uri: z.string().max(2048),
  authorization_endpoint: z.string().max(2048).optional().catch(undefined),
  token_endpoint: z.string().max(2048).optional().catch(undefined),
});

export interface IssuerMetadata {
  issuer: string;
  jwksUri: URL;
  /** As the document gives them, checked where they are used (the confirmation page's sign-in): a token check needs neither. */
  authorizationEndpoint: string | null;
  tokenEndpoint: string | null;
}

export class DiscoveryError extends Error {
  override readonly name = "DiscoveryError";
}

/**
 * Where the issuer's metadata may be, in order: RFC 8414's
 * `/.well-known/oauth-authorization-server` inserted before the issuer's path, then OpenID Connect
 * Discovery's `/.well-known/openid-configuration` appended to it.
 */
export function metadataLocations(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
}

async function readDocument(location: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchBounded(location, {}, METADATA_LIMITS);
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: { code?: unknown; message?: unknown } };
    const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message.slice(0, 200) : null;
    const why = name === "TimeoutError" ? `no answer within ${METADATA_LIMITS.timeoutMs / 1000} s` : detail === null ? message : `${message} (${detail})`;
    throw new DiscoveryError(`${location}: ${why}`);
  }
  if (response.status === 404) return undefined;
  if (response.status !== 200) throw new DiscoveryError(`${location}: HTTP ${response.status}`);
  try {
    return JSON.parse(await response.text()) as unknown;
  } catch {
    throw new DiscoveryError(`${location}: not JSON`);
  }
}

/**
 * The issuer's metadata, from the first location that has it. Its `issuer` must be the configured
 * one exactly (RFC 8414 section 3.3: otherwise a document could name keys of another server), and
 * its `jwks_uri` an https URL (http on loopback only).
 */
export async function discoverIssuer(issuer: string): Promise<IssuerMetadata> {
  for (const location of metadataLocations(issuer)) {
    const document = await readDocument(location);
    if (document === undefined) continue;
    const parsed = IssuerMetadataDocument.safeParse(document);
    if (!parsed.success) throw new DiscoveryError(`${location}: no issuer and jwks_uri strings of at most 2048 characters`);
    if (parsed.data.issuer !== issuer) throw new DiscoveryError(`${location}: its issuer is not ${issuer} (${OPTIONS.authIssuer.env}) exactly`);
    const problem = serviceUrlProblem(parsed.data.jwks_uri);
    if (problem !== null) throw new DiscoveryError(`${location}: its jwks_uri must be ${problem}`);
    return {
      issuer,
      jwksUri: new URL(parsed.data.jwks_uri),
      authorizationEndpoint: parsed.data.authorization_endpoint ?? null,
      tokenEndpoint: parsed.data.token_endpoint ?? null,
    };
  }
  throw new DiscoveryError(`no authorization server metadata at ${metadataLocations(issuer).join(" nor ")}`);
}
