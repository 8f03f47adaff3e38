import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "jose";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

/** A person who can sign in, and what their access tokens say of them. */
export interface TestAccount {
  password: string;
  name: string;
  email: string;
  groups: string[];
  roles: string[];
}

export const ACCOUNTS: Readonly<Record<string, TestAccount>> = {
  alice: { password: "alice-passphrase", name: "Alice Martin", email: "alice@example.com", groups: ["treasury-operators"], roles: [] },
  bob: { password: "bob-passphrase", name: "Bob Stone", email: "bob@example.com", groups: ["treasury-viewers"], roles: [] },
  carol: { password: "carol-passphrase", name: "Carol Reyes", email: "carol@example.com", groups: ["treasury-approvers"], roles: ["auditor"] },
};

/** The public client a person signs in through (authorization code with PKCE, loopback redirect). */
export const DESK_CLIENT = "custody-desk";
export const DESK_REDIRECT = "http://127.0.0.1/callback";
/** The confidential client of the MCP server's confirmation page (authorization code with PKCE, redirected to the server's /confirm/callback). */
export const PAGE_CLIENT = "custody-confirm-page";
export const PAGE_CLIENT_SECRET = randomBytes(24).toString("base64url");
/** The confidential client of a service (client credentials), and the claims its tokens carry. */
export const SERVICE_CLIENT = "reconciliation-service";
const SERVICE_SECRET = randomBytes(24).toString("base64url");
const SERVICE_CLAIMS = { name: "Reconciliation service", groups: ["treasury-services"], roles: ["reconciler"] };

export type CustodyScope = "custody:read" | "custody:write";

export interface AuthorizationServer {
  /** http://127.0.0.1:<port>, the issuer identifier. */
  issuer: string;
  /** The resource URL tokens are issued for by default (the MCP server's public URL). */
  resource: string;
  /** The provider's signing key (private, RS256), which its JWKS publishes by kid. */
  signingKey: JWK;
  /** A person's access token through the whole authorization code flow with PKCE, over HTTP. */
  personToken(account: string, scopes: readonly CustodyScope[], resource?: string): Promise<string>;
  /** A service's access token through the client credentials grant. */
  serviceToken(scopes: readonly CustodyScope[], resource?: string): Promise<string>;
  /**
   * A token signed with the provider's own key, with these claims over a valid person
   * token's (e.g. a past exp, another iss), typ at+jwt unless given (null: none).
   */
  signedWithProviderKey(claims: JWTPayload, typ?: string | null): Promise<string>;
  /** A token with alg none: unsigned. */
  unsigned(): string;
  /** A token signed with another key that claims the provider's kid. */
  forged(): Promise<string>;
  /** A token signed with HS256 under a secret (a symmetric signature). */
  symmetric(): Promise<string>;
  stop(): Promise<void>;
}

/** What a browser is shown at the issuer: its login form, or its consent form. */
function interactionPage(uid: string, prompt: string, client: string): string {
  const fields =
    prompt === "login"
      ? '<label>Login <input name="login" autocomplete="username"></label><label>Password <input ' +
        'name="password" type="password"></label><button type="submit">Sign in</button>'
      : `<p>${client.replace(/[^\w.-]/g, "")} asks to act for you.</p><button type="submit">Allow</button>`;
  return (
    `<!doctype html><html><head><title>Test issuer: ${prompt}</title></head><body><h1>Test ` +
    'issuer</h1><form method="post" ' +
    `action="/interaction/${uid}/${prompt === "login" ? "login" : "confirm"}">${fields}</form></body></html>`
  );
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Cookies by name, as a browser keeps them across the redirects of one sign-in (paths ignored: the provider signs each). */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      if (at > 0) this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * A real OpenID Connect / OAuth 2.1 authorization server (oidc-provider) on 127.0.0.1: resource
 * indicators give JWT access tokens whose `aud` is the resource asked for, with the custody scopes
 * and the person's name, e-mail, groups and roles. Sign-in and consent are its interaction pages,
 * answered here as forms a person would submit.
 */
export async function startAuthorizationServer(port: number, resource: string): Promise<AuthorizationServer> {
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: "custody-test-rs256", alg: "RS256", use: "sig" };
  const configuration: Configuration = {
    clients: [
      {
        client_id: DESK_CLIENT,
        application_type: "native",
        token_endpoint_auth_method: "none",
        redirect_uris: [DESK_REDIRECT],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
      {
        client_id: PAGE_CLIENT,
        client_secret: PAGE_CLIENT_SECRET,
        application_type: "web",
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: [`${new URL(resource).origin}/confirm/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
      {
        client_id: SERVICE_CLIENT,
        client_secret: SERVICE_SECRET,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        scope: "custody:read custody:write",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    scopes: ["openid", "custody:read", "custody:write"],
    pkce: { required: () => true },
    ttl: { AccessToken: 300, ClientCredentials: 300, IdToken: 300, Interaction: 600, Session: 3600, Grant: 3600 },
    findAccount: (_ctx, id) => {
      const account = ACCOUNTS[id];
      return account === undefined ? undefined : { accountId: id, claims: () => ({ sub: id, name: account.name, email: account.email }) };
    },
    extraTokenClaims: (_ctx, token) => {
      if (token.kind === "ClientCredentials") return SERVICE_CLAIMS;
      const account = "accountId" in token && typeof token.accountId === "string" ? ACCOUNTS[token.accountId] : undefined;
      return account === undefined ? undefined : { name: account.name, email: account.email, groups: account.groups, roles: account.roles };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => ({
          scope: "custody:read custody:write",
          audience: indicator,
          accessTokenFormat: "jwt",
          accessTokenTTL: 300,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  const oidc = provider.callback();

  /** The interaction pages: a login form and a consent form (HTML for a browser, JSON for personToken), answered by POSTs. */
  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined): Promise<void> => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error("interaction mismatch");
    if (action === undefined && (req.headers.accept ?? "").includes("text/html")) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return void res.end(interactionPage(uid, details.prompt.name, String(details.params.client_id)));
    }
    if (action === undefined) {
      res.writeHead(200, { "Content-Type": "application/json" });
      return void res.end(JSON.stringify({ uid, prompt: details.prompt.name }));
    }
    const form = new URLSearchParams(
      await new Promise<string>((resolve) => {
        let text = "";
        req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        req.on("end", () => resolve(text));
      }),
    );
    if (action === "login") {
      const login = form.get("login") ?? "";
      const account = ACCOUNTS[login];
      if (account === undefined || form.get("password") !== account.password) {
        res.writeHead(401, { "Content-Type": "text/plain" });
        return void res.end("wrong login or password");
      }
      return void (await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false }));
    }
    // Consent: grant what the client asked for, the custody scopes on the resource named.
    const { accountId } = details.session ?? {};
    const grant = new provider.Grant({ accountId: accountId ?? "", clientId: String(details.params.client_id) });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };

  const server = createServer((req, res) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(login|confirm))?$/.exec(new URL(req.url ?? "/", issuer).pathname);
    if (match?.[1] === undefined) return void oidc(req, res);
    interaction(req, res, match[1], match[2]).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(`interaction: ${(error as Error).message}`);
    });
  });
  await new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server.address() as AddressInfo));
  });

  const tokenRequest = async (form: Record<string, string>, headers: Record<string, string> = {}): Promise<string> => {
    const response = await fetch(`${issuer}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form),
    });
    const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
    if (answer.access_token === undefined) throw new Error(`token endpoint: ${response.status} ${answer.error ?? ""} ${answer.error_description ?? ""}`);
    return answer.access_token;
  };

  const personToken = async (account: string, scopes: readonly CustodyScope[], target = resource): Promise<string> => {
    const credentials = ACCOUNTS[account];
    if (credentials === undefined) throw new Error(`no account ${account}`);
    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(8).toString("hex");
    const authorize = new URL(`${issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id: DESK_CLIENT,
      response_type: "code",
      redirect_uri: DESK_REDIRECT,
      scope: ["openid", ...scopes].join(" "),
      resource: target,
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();
    const jar = new CookieJar();
    const step = async (url: string, init: RequestInit = {}): Promise<Response> => {
      const response = await fetch(url, {
        ...init,
        redirect: "manual",
        headers: { ...(init.headers as Record<string, string> | undefined), Cookie: jar.header() },
      });
      jar.take(response);
      return response;
    };
    let location = authorize.href;
    for (let hops = 0; hops < 12; hops += 1) {
      if (location.startsWith(DESK_REDIRECT)) {
        const callback = new URL(location);
        if (callback.searchParams.get("state") !== state) throw new Error("callback with another state");
        const code = callback.searchParams.get("code");
        if (code === null)
          throw new Error(`authorization refused: ${callback.searchParams.get("error") ?? ""} ${callback.searchParams.get("error_description") ?? ""}`);
        return tokenRequest({
          grant_type: "authorization_code",
          code,
          redirect_uri: DESK_REDIRECT,
          client_id: DESK_CLIENT,
          code_verifier: verifier,
          resource: target,
        });
      }
      const url = new URL(location, issuer);
      let response: Response;
      if (url.pathname.startsWith("/interaction/")) {
        const page = (await (await step(url.href)).json()) as { prompt: string };
        const form: Record<string, string> = page.prompt === "login" ? { login: account, password: credentials.password } : {};
        response = await step(`${url.href}/${page.prompt === "login" ? "login" : "confirm"}`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form),
        });
      } else {
        response = await step(url.href);
      }
      const next = response.headers.get("location");
      if (next === null) throw new Error(`sign-in stopped at ${url.pathname}: HTTP ${response.status} ${await response.text()}`);
      location = new URL(next, url).href;
    }
    throw new Error("sign-in did not reach the callback");
  };

  const serviceToken = (scopes: readonly CustodyScope[], target = resource): Promise<string> =>
    tokenRequest(
      { grant_type: "client_credentials", scope: scopes.join(" "), resource: target },
      { Authorization: `Basic ${Buffer.from(`${SERVICE_CLIENT}:${SERVICE_SECRET}`).toString("base64")}` },
    );

  const now = () => Math.floor(Date.now() / 1000);
  const personClaims = (): JWTPayload => ({
    iss: issuer,
    sub: "alice",
    aud: resource,
    client_id: DESK_CLIENT,
    scope: "custody:read custody:write",
    iat: now(),
    exp: now() + 300,
    jti: randomBytes(8).toString("hex"),
    name: "Alice Martin",
    groups: ["treasury-operators"],
  });

  return {
    issuer,
    resource,
    signingKey,
    personToken,
    serviceToken,
    signedWithProviderKey: async (claims, typ = "at+jwt") =>
      new SignJWT({ ...personClaims(), ...claims })
        .setProtectedHeader({ alg: "RS256", kid: signingKey.kid, ...(typ === null ? {} : { typ }) })
        .sign(privateKey),
    unsigned: () => `${base64url({ alg: "none", typ: "at+jwt" })}.${base64url(personClaims())}.`,
    forged: async () => {
      const other = await generateKeyPair("RS256");
      return new SignJWT(personClaims()).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: signingKey.kid }).sign(other.privateKey);
    },
    symmetric: () => new SignJWT(personClaims()).setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid: signingKey.kid }).sign(randomBytes(32)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
