import { parseArgs } from "node:util";
import { ConfirmationMode, isDatabaseUrl, errorMessage } from "@custody/shared";

export interface HttpOptions {
  port: number;
  host: string;
  /** The bearer token clients must send; generated and printed to stderr when not configured. */
  token: string | null;
  /** A session with no request open for this long is closed (its client must initialize again). */
  sessionIdleSeconds: number;
  /** Sessions held at once; an initialize beyond is refused (503). */
  maxSessions: number;
  /** This replica's name behind a load balancer: every session id it issues starts with it and a dot, for the balancer to route on. */
  replicaId: string | null;
  /** The origin clients reach the server at through a load balancer (http(s)://host[:port]): Host and Origin naming it are accepted too. */
  publicOrigin: string | null;
  /** Signed-in people (OAuth 2.1 access tokens from an issuer) instead of the shared bearer token; null: the shared token. */
  oauth: OAuthSettings | null;
}

/** This server as an OAuth resource server: whose access tokens it takes, and the resource URL they must name. */
export interface OAuthSettings {
  /** The authorization server's issuer identifier (--auth-issuer, CUSTODY_AUTH_ISSUER); its metadata names its keys. */
  issuer: string;
  /** This server's resource URL as clients reach it (--public-url, CUSTODY_PUBLIC_URL): every token's audience. */
  resource: string;
}

export interface ServerConfig {
  /** The module's base URL; null starts the emulator in-process on its demo workspace. */
  baseUrl: string | null;
  operator: string | null;
  policyPath: string | null;
  readOnly: boolean;
  /** `person` requires the person's own confirmation whatever the policy file says; null: the policy's setting. */
  confirmation: ConfirmationMode | null;
  /** The command opening a confirmation page's person link in their browser (`none`: nothing); null: the platform's. */
  confirmOpener: string | null;
  /** The embedded store's audit log file (--store FILE or --audit-log); null: the default path. Unused with a database. */
  auditLogPath: string | null;
  /** The guard's store in PostgreSQL (--store postgres://...), or null for the embedded file store. */
  storeUrl: string | null;
  /** A file of 32 or more random bytes that replicas share, so a token one issued opens on another; null: a random key per process. */
  tokenSecretFile: string | null;
  /** The key sealing the audit store's tail and ledger (32+ bytes; replicas share it); null: the default one (defaultSealKeyPath, created if missing). */
  auditSealKeyFile: string | null;
  tokenTtlSeconds: number;
  /** How often the accounts and transactions someone is subscribed to are read again, in seconds. */
  watchIntervalSeconds: number;
  /** With a base URL: a file holding the key of an emulator started with one, sent as X-Emulator-Key. */
  emulatorKeyFile: string | null;
  /** Streamable HTTP instead of stdio. */
  http: HttpOptions | null;
}

export type Command =
  | { command: "serve"; config: ServerConfig }
  /** A file path or a postgres:// URL. */
  | { command: "verify-audit"; target: string; sealKeyFile: string | null }
  /** Seals a store as it now is, after a person has looked at why its seal stopped it. */
  | { command: "reseal-audit"; target: string; sealKeyFile: string | null }
  | { command: "export-audit"; storeUrl: string }
  | { command: "help" };

export const DEFAULT_HTTP_PORT = 7531;
export const DEFAULT_TOKEN_TTL_SECONDS = 300;
export const DEFAULT_WATCH_INTERVAL_SECONDS = 5;
export const DEFAULT_SESSION_IDLE_SECONDS = 1800;
export const DEFAULT_MAX_SESSIONS = 100;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);
/** The same hosts as a URL's hostname spells them. */
const LOOPBACK_URL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const REPLICA_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

function flagOrEnv(flag: string | undefined, env: string | undefined): string | null {
  const value = flag ?? env;
  return value === undefined || value === "" ? null : value;
}

function readBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name}: must be true or false, got ${JSON.stringify(value)}`);
}

function readInteger(name: string, value: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name}: must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** --confirmation (CUSTODY_CONFIRMATION): `token` or `person`. */
function readConfirmation(value: string | null): ConfirmationMode | null {
  if (value === null) return null;
  const parsed = ConfirmationMode.safeParse(value);
  if (!parsed.success) throw new ConfigError(`--confirmation (CUSTODY_CONFIRMATION): token or person, got ${JSON.stringify(value.slice(0, 100))}`);
  return parsed.data;
}

function readReplicaId(value: string | null): string | null {
  if (value !== null && !REPLICA_ID.test(value)) throw new ConfigError(`--replica-id (CUSTODY_MCP_REPLICA_ID): 1 to 32 lower-case letters, digits and hyphens, starting with a letter or digit; got ${JSON.stringify(value)}`);
  return value;
}

function readPublicOrigin(value: string | null): string | null {
  if (value === null) return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url === null || !["http:", "https:"].includes(url.protocol) || url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new ConfigError(`--public-origin (CUSTODY_MCP_PUBLIC_ORIGIN): an origin, http(s)://host[:port] with no path, got ${JSON.stringify(value)}`);
  }
  return url.origin;
}

/**
 * What is wrong with the URL of an OAuth party (the issuer, its keys, this resource), or null: it
 * must be an absolute http(s) URL without query, fragment or credentials, plain http only on loopback.
 */
export function serviceUrlProblem(value: string): string | null {
  const url = value.length <= 2048 && URL.canParse(value) ? new URL(value) : null;
  if (url === null || !["http:", "https:"].includes(url.protocol)) return "an absolute http(s) URL of at most 2048 characters";
  if (url.search !== "" || url.hash !== "" || value.includes("#") || value.includes("?")) return "without query or fragment";
  if (url.username !== "" || url.password !== "") return "without user name or password";
  if (url.protocol === "http:" && !LOOPBACK_URL_HOSTS.has(url.hostname)) return "https (plain http only on a loopback host)";
  return null;
}

function readServiceUrl(setting: string, what: string, value: string): URL {
  const problem = serviceUrlProblem(value);
  if (problem !== null) throw new ConfigError(`${setting}: ${what} must be ${problem}, got ${JSON.stringify(value.slice(0, 200))}`);
  return new URL(value);
}

/**
 * With an issuer, every request must carry an access token it issued for this server's public URL;
 * the shared bearer token is then not accepted. The public URL's origin is the one clients reach,
 * so it joins the Host/Origin check as --public-origin does (the two may not name different origins).
 */
function readOAuth(issuer: string | null, publicUrl: string | null, publicOrigin: string | null): { oauth: OAuthSettings | null; publicOrigin: string | null } {
  if (issuer === null) {
    if (publicUrl !== null) throw new ConfigError("--public-url (CUSTODY_PUBLIC_URL): only with --auth-issuer (CUSTODY_AUTH_ISSUER), the authorization server whose tokens name it");
    return { oauth: null, publicOrigin };
  }
  if (publicUrl === null) throw new ConfigError("--public-url (CUSTODY_PUBLIC_URL): required with --auth-issuer (CUSTODY_AUTH_ISSUER): this server's resource URL, the audience of its access tokens (e.g. https://custody.example.com/mcp)");
  readServiceUrl("--auth-issuer (CUSTODY_AUTH_ISSUER)", "the issuer", issuer);
  const resource = readServiceUrl("--public-url (CUSTODY_PUBLIC_URL)", "this server's resource URL", publicUrl);
  if (publicOrigin !== null && publicOrigin !== resource.origin) {
    throw new ConfigError(`--public-url (CUSTODY_PUBLIC_URL) and --public-origin (CUSTODY_MCP_PUBLIC_ORIGIN) name different origins (${resource.origin}, ${publicOrigin}): clients reach one`);
  }
  // Tokens' aud is compared with it character for character: it must be written as a URL reads back (no case or slash left to normalise).
  if (resource.href !== publicUrl) throw new ConfigError(`--public-url (CUSTODY_PUBLIC_URL): write it as ${JSON.stringify(resource.href)} (the audience tokens carry is compared exactly), got ${JSON.stringify(publicUrl.slice(0, 200))}`);
  // The issuer is compared with the metadata's and the tokens' iss exactly as configured.
  return { oauth: { issuer, resource: resource.href }, publicOrigin: resource.origin };
}

/** The shortest shared bearer token accepted: 32 characters (hex of 16 random bytes, or more). */
const MIN_BEARER_TOKEN_LENGTH = 32;

function readHttpOptions(
  values: { port?: string; "session-idle-seconds"?: string; "max-sessions"?: string; "replica-id"?: string; "public-origin"?: string; "auth-issuer"?: string; "public-url"?: string },
  host: string,
  env: Readonly<Record<string, string | undefined>>,
): HttpOptions {
  const idle = flagOrEnv(values["session-idle-seconds"], env.CUSTODY_MCP_SESSION_IDLE_SECONDS);
  const max = flagOrEnv(values["max-sessions"], env.CUSTODY_MCP_MAX_SESSIONS);
  const { oauth, publicOrigin } = readOAuth(
    flagOrEnv(values["auth-issuer"], env.CUSTODY_AUTH_ISSUER),
    flagOrEnv(values["public-url"], env.CUSTODY_PUBLIC_URL),
    readPublicOrigin(flagOrEnv(values["public-origin"], env.CUSTODY_MCP_PUBLIC_ORIGIN)),
  );
  const token = flagOrEnv(undefined, env.CUSTODY_MCP_TOKEN);
  // Left set by mistake, a shared token would look like it still lets clients in: say it does not.
  if (oauth !== null && token !== null) throw new ConfigError("CUSTODY_MCP_TOKEN and --auth-issuer (CUSTODY_AUTH_ISSUER): give one; with an issuer only its access tokens are accepted, the shared bearer token is not");
  // Every tool of the server stands behind it: a short one can be guessed (never quoted: it is a secret).
  if (token !== null && token.length < MIN_BEARER_TOKEN_LENGTH) {
    throw new ConfigError(`CUSTODY_MCP_TOKEN: at least ${MIN_BEARER_TOKEN_LENGTH} characters, got ${token.length}; generate one with \`openssl rand -hex 32\`, or leave it unset for a generated one`);
  }
  return {
    port: values.port === undefined ? DEFAULT_HTTP_PORT : readInteger("--port", values.port, 0, 65_535),
    host,
    token,
    sessionIdleSeconds: idle === null ? DEFAULT_SESSION_IDLE_SECONDS : readInteger("--session-idle-seconds (CUSTODY_MCP_SESSION_IDLE_SECONDS)", idle, 1, 86_400),
    maxSessions: max === null ? DEFAULT_MAX_SESSIONS : readInteger("--max-sessions (CUSTODY_MCP_MAX_SESSIONS)", max, 1, 10_000),
    replicaId: readReplicaId(flagOrEnv(values["replica-id"], env.CUSTODY_MCP_REPLICA_ID)),
    publicOrigin,
    oauth,
  };
}

/**
 * Where the guard's state lives: --store (a postgres:// URL, or a file), else --audit-log (a file),
 * else CUSTODY_STORE, else CUSTODY_AUDIT_LOG; the flags may not name two places.
 */
function readStore(values: { store?: string; "audit-log"?: string }, env: Readonly<Record<string, string | undefined>>): string | null {
  if (values.store !== undefined && values["audit-log"] !== undefined) throw new ConfigError("--store and --audit-log: give one (--store takes a file path or a postgres:// URL)");
  return flagOrEnv(values.store ?? values["audit-log"], undefined) ?? flagOrEnv(env.CUSTODY_STORE, env.CUSTODY_AUDIT_LOG);
}

/** Reads the command line and the environment; flags win over environment variables. */
export function readCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        "base-url": { type: "string" },
        operator: { type: "string" },
        policy: { type: "string" },
        "read-only": { type: "boolean" },
        confirmation: { type: "string" },
        "confirm-opener": { type: "string" },
        "audit-log": { type: "string" },
        store: { type: "string" },
        "token-secret-file": { type: "string" },
        "audit-seal-key-file": { type: "string" },
        "replica-id": { type: "string" },
        "public-origin": { type: "string" },
        "auth-issuer": { type: "string" },
        "public-url": { type: "string" },
        "token-ttl-seconds": { type: "string" },
        "watch-interval-seconds": { type: "string" },
        "emulator-key-file": { type: "string" },
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        "session-idle-seconds": { type: "string" },
        "max-sessions": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new ConfigError(`${errorMessage(error)}; see --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  const store = readStore(values, env);
  const sealKeyFile = flagOrEnv(values["audit-seal-key-file"], env.CUSTODY_AUDIT_SEAL_KEY_FILE);
  if (positionals[0] === "verify-audit" || positionals[0] === "reseal-audit") {
    const command = positionals[0];
    const target = positionals[1] ?? store;
    if (target === null || positionals.length > 2) throw new ConfigError(`${command}: give exactly one audit log file, or --store (CUSTODY_STORE) naming the store`);
    return { command, target, sealKeyFile };
  }
  if (positionals[0] === "export-audit") {
    const storeUrl = positionals[1] ?? store;
    if (storeUrl === null || positionals.length > 2 || !isDatabaseUrl(storeUrl)) {
      throw new ConfigError("export-audit: give --store (CUSTODY_STORE) naming a postgres:// store; its chain is written to stdout as JSONL (a file store is its own export)");
    }
    return { command: "export-audit", storeUrl };
  }
  if (positionals.length > 0) throw new ConfigError(`unknown command ${JSON.stringify(positionals[0])}; the commands are verify-audit, reseal-audit and export-audit`);
  const httpOnly = [values.port, values.host, values["session-idle-seconds"], values["max-sessions"], values["replica-id"], values["public-origin"]];
  if (httpOnly.some((value) => value !== undefined) && !values.http) throw new ConfigError("--port, --host, --session-idle-seconds, --max-sessions, --replica-id, --public-origin: only with --http");
  if ((values["auth-issuer"] !== undefined || values["public-url"] !== undefined) && !values.http) throw new ConfigError("--auth-issuer, --public-url: only with --http (signing in is for the HTTP transport)");
  const host = values.host ?? "127.0.0.1";
  if (!LOOPBACK_HOSTS.has(host)) throw new ConfigError(`--host: must be a loopback address (127.0.0.1, localhost or ::1), got ${JSON.stringify(host)}`);
  const ttl = flagOrEnv(values["token-ttl-seconds"], env.CUSTODY_TOKEN_TTL_SECONDS);
  const watch = flagOrEnv(values["watch-interval-seconds"], env.CUSTODY_MCP_WATCH_INTERVAL_SECONDS);
  return {
    command: "serve",
    config: {
      baseUrl: flagOrEnv(values["base-url"], env.CUSTODY_BASE_URL),
      operator: flagOrEnv(values.operator, env.CUSTODY_OPERATOR),
      policyPath: flagOrEnv(values.policy, env.CUSTODY_POLICY),
      readOnly: values["read-only"] === true || readBoolean("CUSTODY_READ_ONLY", env.CUSTODY_READ_ONLY),
      confirmation: readConfirmation(flagOrEnv(values.confirmation, env.CUSTODY_CONFIRMATION)),
      confirmOpener: flagOrEnv(values["confirm-opener"], env.CUSTODY_CONFIRM_OPENER),
      auditLogPath: store !== null && !isDatabaseUrl(store) ? store : null,
      storeUrl: store !== null && isDatabaseUrl(store) ? store : null,
      tokenSecretFile: flagOrEnv(values["token-secret-file"], env.CUSTODY_TOKEN_SECRET_FILE),
      auditSealKeyFile: sealKeyFile,
      tokenTtlSeconds: ttl === null ? DEFAULT_TOKEN_TTL_SECONDS : readInteger("--token-ttl-seconds", ttl, 10, 3600),
      watchIntervalSeconds: watch === null ? DEFAULT_WATCH_INTERVAL_SECONDS : readInteger("--watch-interval-seconds (CUSTODY_MCP_WATCH_INTERVAL_SECONDS)", watch, 1, 3600),
      emulatorKeyFile: flagOrEnv(values["emulator-key-file"], env.CUSTODY_EMULATOR_KEY_FILE),
      http: values.http ? readHttpOptions(values, host, env) : null,
    },
  };
}

/**
 * A replica must share with the others what makes a session's work valid on any of them: the token
 * secret, and the bearer token unless people sign in (then the issuer's tokens are good on every replica).
 */
export function replicaProblem(config: ServerConfig): string | null {
  if (config.http?.replicaId == null) return null;
  const missing = [
    ...(config.http.token === null && config.http.oauth === null ? ["the bearer token (CUSTODY_MCP_TOKEN)"] : []),
    ...(config.tokenSecretFile === null ? ["the token secret (--token-secret-file, CUSTODY_TOKEN_SECRET_FILE)"] : []),
  ];
  return missing.length === 0 ? null : `--replica-id (CUSTODY_MCP_REPLICA_ID): replicas must share ${missing.join(" and ")}; set it on every replica`;
}

export const USAGE = `custody-mcp: MCP server for the custody workspace (stdio by default)

  custody-mcp [options]            serve over stdio
  custody-mcp --http [--port N]    serve Streamable HTTP on 127.0.0.1 (bearer token, or OAuth with --auth-issuer)
  custody-mcp verify-audit <file>  verify an audit log's hash chain
  custody-mcp verify-audit --store postgres://...   verify a database store's chain (streaming)
                                   both compare the chain with its seal: a shortened one is reported
  custody-mcp reseal-audit <file>|--store postgres://...   after a person has looked at a store its seal
                                   stopped (shortened, edited ledger, other key): seal it as it now is
  custody-mcp export-audit --store postgres://...   write a database store's chain to stdout as JSONL

Options (environment variable in brackets):
  --base-url URL          the module's base URL [CUSTODY_BASE_URL]; absent: in-process emulator, demo workspace
  --operator NAME         the API operator to act as [CUSTODY_OPERATOR]
  --policy FILE           local policy, JSON [CUSTODY_POLICY]
  --read-only             register no write tool [CUSTODY_READ_ONLY=true]
  --confirmation MODE     who confirms a write: token (whoever holds the dry run's token; the default) or person
                          (only the person, in their client's form or on the server's confirmation page); the
                          stricter of this and the policy's "confirmation" applies [CUSTODY_CONFIRMATION]
  --confirm-opener CMD    in person mode, the command that opens the confirmation page's link (the only one that
                          can confirm, never shown to the model) in the person's browser, the link as its last
                          argument; none: no page; default xdg-open, open or rundll32 [CUSTODY_CONFIRM_OPENER]
  --audit-log FILE        audit log, JSONL [CUSTODY_AUDIT_LOG]; default ~/.custody-mcp/audit.jsonl
  --store FILE|URL        the guard's store [CUSTODY_STORE]: a file is the audit log above; postgres://user:password@host:port/db
                          a PostgreSQL database shared by replicas (schema created and migrated; the password never shown)
  --token-secret-file F   32+ random bytes shared by replicas: a token one issues opens on another [CUSTODY_TOKEN_SECRET_FILE]
  --audit-seal-key-file F  32+ random bytes sealing the audit store's tail (replicas share it) [CUSTODY_AUDIT_SEAL_KEY_FILE];
                          default ~/.custody-mcp/audit-seal.key, created on first use
  --token-ttl-seconds N   confirmation token lifetime, default 300 [CUSTODY_TOKEN_TTL_SECONDS]
  --watch-interval-seconds N  how often a subscribed transaction's status or account's balances are read again,
                          default ${DEFAULT_WATCH_INTERVAL_SECONDS} [CUSTODY_MCP_WATCH_INTERVAL_SECONDS]
  --emulator-key-file F   with --base-url: the key of an emulator started with one [CUSTODY_EMULATOR_KEY_FILE]
  --http --port N --host H   Streamable HTTP; port default ${DEFAULT_HTTP_PORT}, host 127.0.0.1 [CUSTODY_MCP_TOKEN: bearer token]
  --session-idle-seconds N  with --http: close a session idle this long, default ${DEFAULT_SESSION_IDLE_SECONDS} [CUSTODY_MCP_SESSION_IDLE_SECONDS]
  --max-sessions N        with --http: sessions held at once, default ${DEFAULT_MAX_SESSIONS} [CUSTODY_MCP_MAX_SESSIONS]
  --replica-id ID         with --http behind a load balancer: session ids start with "ID." to route on [CUSTODY_MCP_REPLICA_ID]
  --public-origin URL     with --http behind a load balancer: the origin clients reach, accepted in Host and Origin [CUSTODY_MCP_PUBLIC_ORIGIN]
  --auth-issuer URL       with --http: people sign in; only access tokens this OAuth issuer signed for --public-url are
                          accepted (no shared bearer token) [CUSTODY_AUTH_ISSUER]
  --public-url URL        with --auth-issuer: this server's resource URL as clients reach it (https://custody.example.com/mcp),
                          the tokens' audience; its origin is accepted in Host and Origin [CUSTODY_PUBLIC_URL]
`;
