import { z } from "zod";
import { METADATA_LIMITS } from "../oauth/authorization-server-metadata.js";
import { fetchBounded } from "../oauth/bounded-fetch.js";

/** What the confirmation page's client presents at the token endpoint. */
export interface PageClient {
  clientId: string;
  /** A confidential client's secret (client_secret_basic); null: a public client (its id in the form). */
  secret: string | null;
  redirectUri: string;
  /** The resource the access token is for (RFC 8707): this server's public URL, as for MCP clients. */
  resource: string;
}

const TokenAnswer = z.looseObject({ access_token: z.string().min(1) });
const TokenError = z.looseObject({ error: z.string().max(200), error_description: z.string().max(500).optional() });

export class TokenExchangeError extends Error {
  override readonly name = "TokenExchangeError";
}

/** RFC 6749 section 2.3.1: the id and secret form-encoded, then Basic. */
function basic(clientId: string, secret: string): string {
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString("base64")}`;
}

/**
 * The authorization code exchanged at the issuer's token endpoint, with the PKCE verifier: the
 * access token, not yet checked. Bounded as every fetch of the issuer (no redirects, 5 s, 256 KiB);
 * the issuer's error is quoted (its own short words), never the token.
 */
export async function exchangeCode(tokenEndpoint: string, client: PageClient, code: string, verifier: string): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
    resource: client.resource,
  });
  if (client.secret === null) body.set("client_id", client.clientId);
  const headers: Record<string, string> = {
    Accept: "application/json",
    "Content-Type": "application/x-www-form-urlencoded",
    ...(client.secret === null ? {} : { Authorization: basic(client.clientId, client.secret) }),
  };
  let response: Response;
  let answer: unknown;
  try {
    response = await fetchBounded(tokenEndpoint, { headers, body }, METADATA_LIMITS);
    answer = JSON.parse(await response.text()) as unknown;
  } catch (error) {
    throw new TokenExchangeError(
      "the issuer's token endpoint did not answer usably " +
        `(${(error as Error).name === "TimeoutError" ? "no answer in time" : (error as Error).message.slice(0, 200)})`,
    );
  }
  const token = TokenAnswer.safeParse(answer);
  if (response.status === 200 && token.success) return token.data.access_token;
  const refused = TokenError.safeParse(answer);
  throw new TokenExchangeError(
    "the issuer refused the code: HTTP " +
      `${response.status}` +
      `${refused.success ? ` ${refused.data.error}${refused.data.error_description === undefined ? "" : ` (${refused.data.error_description})`}` : ""}`,
  );
}
