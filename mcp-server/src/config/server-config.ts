import { parseArgs } from "node:util";
import { ConfirmationMode, errorMessage, HeaderOperatorName, isDatabaseUrl, ServiceBaseUrl } from "@custody/shared";
import { flagsOnlyWith, OPTIONS, parseArgsOptions, settingName, usageOptions, type OptionDeclaration } from "./options.js";

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
  /** The authorization server's issuer identifier (OPTIONS.authIssuer); its metadata names its keys. */
  issuer: string;
  /** This server's resource URL as clients reach it (OPTIONS.publicUrl): every token's audience. */
  resource: string;
  /** The client the confirmation page signs people in through (--confirm-client-id); absent: the page does not sign in (it refuses). */
  confirmClient?: ConfirmClientSettings;
}

/** The OAuth client of the confirmation page: the authorization code flow with PKCE, redirected to `<public origin>/confirm/callback`. */
export interface ConfirmClientSettings {
  /** OPTIONS.confirmClientId. */
  clientId: string;
  /** OPTIONS.confirmClientSecretFile: a confidential client's secret, read at start; never logged. */
  secretFile: string | null;
  /** OPTIONS.confirmClientSecret: the same, from the environment. */
  secret: string | null;
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

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);
/** The same hosts as a URL's hostname spells them. */
const LOOPBACK_URL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const REPLICA_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Env = Readonly<Record<string, string | undefined>>;
type Values = Readonly<Record<string, string | boolean | undefined>>;

/** The option's value: its flag, else its environment variable; empty is unset. */
function valueOf(option: OptionDeclaration, values: Values, env: Env): string | null {
  const flag = option.flag === null ? undefined : values[option.flag];
  const value = typeof flag === "string" ? flag : option.env === null ? undefined : env[option.env];
  return value === undefined || value === "" ? null : value;
}

/** A boolean option: its flag, else its environment variable (true or false). */
function booleanOf(option: OptionDeclaration, values: Values, env: Env): boolean {
  if (option.flag !== null && values[option.flag] === true) return true;
  const value = option.env === null ? undefined : env[option.env];
  if (value === undefined || value === "") return false;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${option.env}: must be true or false, got ${JSON.stringify(value)}`);
}

/** A whole-number option within its declared range, or its default. */
function wholeNumberOf(option: OptionDeclaration & { range: { min: number; max: number }; default: number }, values: Values, env: Env): number {
  const value = valueOf(option, values, env);
  if (value === null) return option.default;
  const { min, max } = option.range;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${settingName(option)}: must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** --confirmation: `token` or `person`. */
function readConfirmation(value: string | null): ConfirmationMode | null {
  if (value === null) return null;
  const parsed = ConfirmationMode.safeParse(value);
  if (!parsed.success) throw new ConfigError(`${settingName(OPTIONS.confirmation)}: token or person, got ${JSON.stringify(value.slice(0, 100))}`);
  return parsed.data;
}

/** --base-url: checked at start, not at the first call; never quoted (it may carry a password). Trimmed, as the rule trims it. */
function readBaseUrl(value: string | null): string | null {
  if (value === null) return null;
  const parsed = ServiceBaseUrl.safeParse(value);
  if (!parsed.success) throw new ConfigError(`${settingName(OPTIONS.baseUrl)}: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  return parsed.data;
}

function readOperator(value: string | null): string | null {
  if (value === null) return null;
  const parsed = HeaderOperatorName.safeParse(value);
  if (!parsed.success)
    throw new ConfigError(`${settingName(OPTIONS.operator)}: ${parsed.error.issues[0]?.message ?? "invalid"}, got ${JSON.stringify(value.slice(0, 100))}`);
  return value;
}

function readReplicaId(value: string | null): string | null {
  if (value !== null && !REPLICA_ID.test(value))
    throw new ConfigError(
      `${settingName(OPTIONS.replicaId)}: 1 to 32 lower-case letters, digits and hyphens, starting with a letter or digit; got ${JSON.stringify(value)}`,
    );
  return value;
}

function readPublicOrigin(value: string | null): string | null {
  if (value === null) return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (
    url === null ||
    !["http:", "https:"].includes(url.protocol) ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    throw new ConfigError(`${settingName(OPTIONS.publicOrigin)}: an origin, http(s)://host[:port] with no path, got ${JSON.stringify(value)}`);
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
const AUTH_ISSUER = settingName(OPTIONS.authIssuer);
const PUBLIC_URL = settingName(OPTIONS.publicUrl);
const CONFIRM_CLIENT_ID = settingName(OPTIONS.confirmClientId);

function readOAuth(
  issuer: string | null,
  publicUrl: string | null,
  publicOrigin: string | null,
  confirmClient: ConfirmClientSettings | null,
): { oauth: OAuthSettings | null; publicOrigin: string | null } {
  if (issuer === null) {
    if (publicUrl !== null) throw new ConfigError(`${PUBLIC_URL}: only with ${AUTH_ISSUER}, the authorization server whose tokens name it`);
    if (confirmClient !== null) throw new ConfigError(`${CONFIRM_CLIENT_ID}: only with ${AUTH_ISSUER}, where the confirmation page signs people in`);
    return { oauth: null, publicOrigin };
  }
  if (publicUrl === null)
    throw new ConfigError(
      `${PUBLIC_URL}: required with ${AUTH_ISSUER}: this server's resource URL, the audience of its access tokens (e.g. https://custody.example.com/mcp)`,
    );
  readServiceUrl(AUTH_ISSUER, "the issuer", issuer);
  const resource = readServiceUrl(PUBLIC_URL, "this server's resource URL", publicUrl);
  if (publicOrigin !== null && publicOrigin !== resource.origin) {
    throw new ConfigError(
      `${PUBLIC_URL} and ${settingName(OPTIONS.publicOrigin)} name different origins (${resource.origin}, ${publicOrigin}): clients reach one`,
    );
  }
  // Tokens' aud is compared with it character for character: it must be written as a URL reads back (no case or slash left to normalise).
  if (resource.href !== publicUrl)
    throw new ConfigError(
      `${PUBLIC_URL}: write it as ${JSON.stringify(resource.href)} (the audience tokens carry is ` +
        `compared exactly), got ${JSON.stringify(publicUrl.slice(0, 200))}`,
    );
  // The issuer is compared with the metadata's and the tokens' iss exactly as configured.
  return { oauth: { issuer, resource: resource.href, ...(confirmClient === null ? {} : { confirmClient }) }, publicOrigin: resource.origin };
}

/** The longest client id accepted (an identifier the issuer assigned, put in a URL). */
const MAX_CLIENT_ID = 256;

/** The confirmation page client and its secret (a file, or the secret itself; at most one; none for a public client). */
function readConfirmClient(clientId: string | null, secretFile: string | null, secret: string | null): ConfirmClientSettings | null {
  if (clientId === null) {
    if (secretFile !== null || secret !== null)
      throw new ConfigError(`${settingName(OPTIONS.confirmClientSecretFile)} or ${settingName(OPTIONS.confirmClientSecret)}: only with ${CONFIRM_CLIENT_ID}`);
    return null;
  }
  if (clientId.length > MAX_CLIENT_ID || !/^[\x21-\x7e]+$/.test(clientId))
    throw new ConfigError(`${CONFIRM_CLIENT_ID}: 1 to ${MAX_CLIENT_ID} printable characters without spaces`);
  if (secretFile !== null && secret !== null)
    throw new ConfigError(`${settingName(OPTIONS.confirmClientSecretFile)} and ${settingName(OPTIONS.confirmClientSecret)}: give one`);
  return { clientId, secretFile, secret };
}

/** The shortest shared bearer token accepted: 32 characters (hex of 16 random bytes, or more). */
const MIN_BEARER_TOKEN_LENGTH = 32;

function readHttpOptions(values: Values, host: string, env: Env): HttpOptions {
  const { oauth, publicOrigin } = readOAuth(
    valueOf(OPTIONS.authIssuer, values, env),
    valueOf(OPTIONS.publicUrl, values, env),
    readPublicOrigin(valueOf(OPTIONS.publicOrigin, values, env)),
    readConfirmClient(
      valueOf(OPTIONS.confirmClientId, values, env),
      valueOf(OPTIONS.confirmClientSecretFile, values, env),
      valueOf(OPTIONS.confirmClientSecret, values, env),
    ),
  );
  const token = valueOf(OPTIONS.token, values, env);
  const tokenSetting = settingName(OPTIONS.token);
  // Left set by mistake, a shared token would look like it still lets clients in: say it does not.
  if (oauth !== null && token !== null)
    throw new ConfigError(`${tokenSetting} and ${AUTH_ISSUER}: give one; with an issuer only its access tokens are accepted, the shared bearer token is not`);
  // Every tool of the server stands behind it: a short one can be guessed (never quoted: it is a secret).
  if (token !== null && token.length < MIN_BEARER_TOKEN_LENGTH) {
    throw new ConfigError(
      `${tokenSetting}: at least ${MIN_BEARER_TOKEN_LENGTH} characters, got ${token.length}; generate ` +
        "one with `openssl rand -hex 32`, or leave it unset for a generated one",
    );
  }
  return {
    port: wholeNumberOf(OPTIONS.port, values, env),
    host,
    token,
    sessionIdleSeconds: wholeNumberOf(OPTIONS.sessionIdleSeconds, values, env),
    maxSessions: wholeNumberOf(OPTIONS.maxSessions, values, env),
    replicaId: readReplicaId(valueOf(OPTIONS.replicaId, values, env)),
    publicOrigin,
    oauth,
  };
}

/**
 * Where the guard's state lives: --store (a postgres:// URL, or a file), else --audit-log (a file),
 * else the variable of --store, else that of --audit-log; the flags may not name two places.
 */
function readStore(values: Values, env: Env): string | null {
  const { store, auditLog } = OPTIONS;
  if (values[store.flag] !== undefined && values[auditLog.flag] !== undefined)
    throw new ConfigError("--store and --audit-log: give one (--store takes a file path or a postgres:// URL)");
  const value = values[store.flag] ?? values[auditLog.flag] ?? env[store.env] ?? env[auditLog.env];
  return typeof value !== "string" || value === "" ? null : value;
}

/** Reads the command line and the environment; flags win over environment variables. */
export function readCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: parseArgsOptions(),
    });
  } catch (error) {
    throw new ConfigError(`${errorMessage(error)}; see --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  // An empty variable is unset, as shells make it; an empty flag is a value that went missing (`--base-url "$URL"` with URL unset).
  const empty = Object.entries(values).find(([, value]) => typeof value === "string" && value.trim() === "");
  if (empty !== undefined) throw new ConfigError(`--${empty[0]}: given empty; give its value, or leave the flag out`);
  const store = readStore(values, env);
  const storeFlag = values[OPTIONS.store.flag] ?? values[OPTIONS.auditLog.flag];
  if (positionals.length > 1 && storeFlag !== undefined)
    throw new ConfigError(`${positionals[0]}: give the store once, as ${JSON.stringify(positionals[1])} or as --store, not both`);
  const sealKeyFile = valueOf(OPTIONS.auditSealKeyFile, values, env);
  if (positionals[0] === "verify-audit" || positionals[0] === "reseal-audit") {
    const command = positionals[0];
    const target = positionals[1] ?? store;
    if (target === null || positionals.length > 2)
      throw new ConfigError(`${command}: give exactly one audit log file, or ${settingName(OPTIONS.store)} naming the store`);
    return { command, target, sealKeyFile };
  }
  if (positionals[0] === "export-audit") {
    const storeUrl = positionals[1] ?? store;
    if (storeUrl === null || positionals.length > 2 || !isDatabaseUrl(storeUrl)) {
      throw new ConfigError(
        `export-audit: give ${settingName(OPTIONS.store)} naming a postgres:// store; its chain is written to stdout as JSONL (a file store is its own export)`,
      );
    }
    return { command: "export-audit", storeUrl };
  }
  if (positionals.length > 0)
    throw new ConfigError(`unknown command ${JSON.stringify(positionals[0])}; the commands are verify-audit, reseal-audit and export-audit`);
  const given = (flags: string[]) => flags.some((flag) => values[flag.slice(2)] !== undefined);
  if (given(flagsOnlyWith("http")) && !values.http) throw new ConfigError(`${flagsOnlyWith("http").join(", ")}: only with --http`);
  if (given(flagsOnlyWith("sign-in")) && !values.http)
    throw new ConfigError(`${flagsOnlyWith("sign-in").join(", ")}: only with --http (signing in is for the HTTP transport)`);
  if (given(flagsOnlyWith("page-sign-in")) && !values.http)
    throw new ConfigError(`${flagsOnlyWith("page-sign-in").join(", ")}: only with --http and ${AUTH_ISSUER} (the page signs people in on a team server)`);
  const host = valueOf(OPTIONS.host, values, env) ?? OPTIONS.host.default;
  if (!LOOPBACK_HOSTS.has(host)) throw new ConfigError(`--host: must be a loopback address (127.0.0.1, localhost or ::1), got ${JSON.stringify(host)}`);
  return {
    command: "serve",
    config: {
      baseUrl: readBaseUrl(valueOf(OPTIONS.baseUrl, values, env)),
      operator: readOperator(valueOf(OPTIONS.operator, values, env)),
      policyPath: valueOf(OPTIONS.policy, values, env),
      readOnly: booleanOf(OPTIONS.readOnly, values, env),
      confirmation: readConfirmation(valueOf(OPTIONS.confirmation, values, env)),
      confirmOpener: valueOf(OPTIONS.confirmOpener, values, env),
      auditLogPath: store !== null && !isDatabaseUrl(store) ? store : null,
      storeUrl: store !== null && isDatabaseUrl(store) ? store : null,
      tokenSecretFile: valueOf(OPTIONS.tokenSecretFile, values, env),
      auditSealKeyFile: sealKeyFile,
      tokenTtlSeconds: wholeNumberOf(OPTIONS.tokenTtlSeconds, values, env),
      watchIntervalSeconds: wholeNumberOf(OPTIONS.watchIntervalSeconds, values, env),
      emulatorKeyFile: valueOf(OPTIONS.emulatorKeyFile, values, env),
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
    ...(config.http.token === null && config.http.oauth === null ? [`the bearer token (${settingName(OPTIONS.token)})`] : []),
    ...(config.tokenSecretFile === null ? [`the token secret (--${OPTIONS.tokenSecretFile.flag}, ${OPTIONS.tokenSecretFile.env})`] : []),
  ];
  return missing.length === 0 ? null : `${settingName(OPTIONS.replicaId)}: replicas must share ${missing.join(" and ")}; set it on every replica`;
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
${usageOptions()}
`;
