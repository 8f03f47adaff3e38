import { errorMessage, readSecretTextFile, type Person } from "@custody/shared";
import { OPTIONS, settingName } from "../config/options.js";
import { ConfigError, serviceUrlProblem, type ConfirmClientSettings, type OAuthSettings } from "../config/server-config.js";
import { AccessTokenVerifier } from "../oauth/access-token-verifier.js";
import { WRITE_SCOPE } from "../oauth/custody-scopes.js";
import type { IssuerKeys } from "../oauth/issuer-keys.js";
import { InvalidTokenError } from "../oauth/token-refusals.js";
import { CALLBACK_PATH } from "./page-paths.js";
import type { ConfirmSignIn, PkceFlow } from "../server/server-context.js";
import { challengeOf } from "./sign-in-flow.js";
import { exchangeCode, TokenExchangeError, type PageClient } from "./token-exchange.js";

/** Why a sign-in could not finish: said to the person on the page (never a token). */
export class SignInError extends Error {
  override readonly name = "SignInError";
}

/**
 * The confirmation page's sign-in on a team server: the authorization code flow with PKCE (S256)
 * at the issuer, through the page's own client, redirected to CALLBACK_PATH at the public origin.
 * The code is exchanged for an access token for this server's resource, checked exactly as the MCP
 * endpoint checks a request's token (issuer, audience, expiry, signature, subject), issued to the
 * page's client, with custody:write: the subject it names is who signed in.
 */
export class PageSignIn implements ConfirmSignIn {
  readonly #verifier: AccessTokenVerifier;
  readonly #client: PageClient;

  constructor(
    private readonly settings: OAuthSettings & { confirmClient: ConfirmClientSettings },
    secret: string | null,
    private readonly keys: IssuerKeys,
    readonly origin: string,
  ) {
    this.#verifier = new AccessTokenVerifier(settings, keys);
    this.#client = { clientId: settings.confirmClient.clientId, secret, redirectUri: `${origin}${CALLBACK_PATH}`, resource: settings.resource };
  }

  /** Cookies get Secure when people reach the server over TLS. */
  get secure(): boolean {
    return this.origin.startsWith("https:");
  }

  async #endpoint(which: "authorizationEndpoint" | "tokenEndpoint", field: string): Promise<string> {
    let value: string | null;
    try {
      value = (await this.keys.metadata())[which];
    } catch (error) {
      throw new SignInError(`the identity provider cannot be reached now: ${(error as Error).message}`);
    }
    const problem = value === null ? "present" : serviceUrlProblem(value);
    if (problem !== null) throw new SignInError(`the identity provider's metadata has no usable ${field} (it must be ${problem})`);
    return value as string;
  }

  /** Where the person's browser goes to sign in for this flow. */
  async authorizationUrl(flow: PkceFlow): Promise<string> {
    const url = new URL(await this.#endpoint("authorizationEndpoint", "authorization_endpoint"));
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: this.#client.clientId,
      redirect_uri: this.#client.redirectUri,
      scope: `openid ${WRITE_SCOPE}`,
      resource: this.settings.resource,
      state: flow.state,
      code_challenge: challengeOf(flow),
      code_challenge_method: "S256",
    }).toString();
    return url.href;
  }

  /** The person the issuer signed in, from the code its redirect brought back; SignInError when not. */
  async personFromCode(code: string, flow: PkceFlow): Promise<Person> {
    let token: string;
    try {
      token = await exchangeCode(await this.#endpoint("tokenEndpoint", "token_endpoint"), this.#client, code, flow.verifier);
    } catch (error) {
      if (error instanceof TokenExchangeError || error instanceof SignInError) throw new SignInError(error.message);
      throw error;
    }
    try {
      const verified = await this.#verifier.verify(token);
      // A token the issuer made for another client was not this sign-in's.
      if (verified.person.client !== undefined && verified.person.client !== this.#client.clientId)
        throw new SignInError("the issuer's token names another client than this page's");
      if (!verified.scopes.includes(WRITE_SCOPE)) throw new SignInError(`the issuer did not grant ${WRITE_SCOPE}, which confirming a write needs`);
      return verified.person;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw new SignInError(`the issuer's token was not accepted: ${error.message}`);
      if (error instanceof SignInError) throw error;
      throw new SignInError(`the issuer's token could not be checked: ${(error as Error).message}`);
    }
  }
}

/** The page client's secret: from its file (read at start, trimmed) or the environment; null for a public client. Never logged. */
function clientSecret(client: ConfirmClientSettings): string | null {
  if (client.secretFile === null) return client.secret;
  let text: string;
  try {
    text = readSecretTextFile(client.secretFile, settingName(OPTIONS.confirmClientSecretFile));
  } catch (error) {
    throw new ConfigError(errorMessage(error));
  }
  if (text === "") throw new ConfigError(`${settingName(OPTIONS.confirmClientSecretFile)}: ${client.secretFile} is empty`);
  return text;
}

/** The page's sign-in of a server people sign in to, when it names the page's client; else null. */
export function pageSignInOf(settings: OAuthSettings | null, keys: IssuerKeys | null, origin: string): PageSignIn | null {
  if (settings?.confirmClient === undefined || keys === null) return null;
  return new PageSignIn({ ...settings, confirmClient: settings.confirmClient }, clientSecret(settings.confirmClient), keys, origin);
}
