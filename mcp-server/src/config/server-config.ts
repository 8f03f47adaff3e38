import { parseArgs } from "node:util";

export interface HttpOptions {
  port: number;
  host: string;
  /** The bearer token clients must send; generated and printed to stderr when not configured. */
  token: string | null;
  /** A session with no request open for this long is closed (its client must initialize again). */
  sessionIdleSeconds: number;
  /** Sessions held at once; an initialize beyond is refused (503). */
  maxSessions: number;
}

export interface ServerConfig {
  /** The module's base URL; null starts the emulator in-process on its demo workspace. */
  baseUrl: string | null;
  operator: string | null;
  policyPath: string | null;
  readOnly: boolean;
  auditLogPath: string | null;
  tokenTtlSeconds: number;
  /** With a base URL: a file holding the key of an emulator started with one, sent as X-Emulator-Key. */
  emulatorKeyFile: string | null;
  /** Streamable HTTP instead of stdio. */
  http: HttpOptions | null;
}

export type Command = { command: "serve"; config: ServerConfig } | { command: "verify-audit"; file: string } | { command: "help" };

export const DEFAULT_HTTP_PORT = 7531;
export const DEFAULT_TOKEN_TTL_SECONDS = 300;
export const DEFAULT_SESSION_IDLE_SECONDS = 1800;
export const DEFAULT_MAX_SESSIONS = 100;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

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

function readHttpOptions(
  values: { port?: string; "session-idle-seconds"?: string; "max-sessions"?: string },
  host: string,
  env: Readonly<Record<string, string | undefined>>,
): HttpOptions {
  const idle = flagOrEnv(values["session-idle-seconds"], env.CUSTODY_MCP_SESSION_IDLE_SECONDS);
  const max = flagOrEnv(values["max-sessions"], env.CUSTODY_MCP_MAX_SESSIONS);
  return {
    port: values.port === undefined ? DEFAULT_HTTP_PORT : readInteger("--port", values.port, 0, 65_535),
    host,
    token: flagOrEnv(undefined, env.CUSTODY_MCP_TOKEN),
    sessionIdleSeconds: idle === null ? DEFAULT_SESSION_IDLE_SECONDS : readInteger("--session-idle-seconds (CUSTODY_MCP_SESSION_IDLE_SECONDS)", idle, 1, 86_400),
    maxSessions: max === null ? DEFAULT_MAX_SESSIONS : readInteger("--max-sessions (CUSTODY_MCP_MAX_SESSIONS)", max, 1, 10_000),
  };
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
        "audit-log": { type: "string" },
        "token-ttl-seconds": { type: "string" },
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
    throw new ConfigError(`${(error as Error).message}; see --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  if (positionals[0] === "verify-audit") {
    const file = positionals[1];
    if (file === undefined || positionals.length > 2) throw new ConfigError("verify-audit: give exactly one audit log file");
    return { command: "verify-audit", file };
  }
  if (positionals.length > 0) throw new ConfigError(`unknown command ${JSON.stringify(positionals[0])}; the only command is verify-audit <file>`);
  const httpOnly = [values.port, values.host, values["session-idle-seconds"], values["max-sessions"]];
  if (httpOnly.some((value) => value !== undefined) && !values.http) throw new ConfigError("--port, --host, --session-idle-seconds, --max-sessions: only with --http");
  const host = values.host ?? "127.0.0.1";
  if (!LOOPBACK_HOSTS.has(host)) throw new ConfigError(`--host: must be a loopback address (127.0.0.1, localhost or ::1), got ${JSON.stringify(host)}`);
  const ttl = flagOrEnv(values["token-ttl-seconds"], env.CUSTODY_TOKEN_TTL_SECONDS);
  return {
    command: "serve",
    config: {
      baseUrl: flagOrEnv(values["base-url"], env.CUSTODY_BASE_URL),
      operator: flagOrEnv(values.operator, env.CUSTODY_OPERATOR),
      policyPath: flagOrEnv(values.policy, env.CUSTODY_POLICY),
      readOnly: values["read-only"] === true || readBoolean("CUSTODY_READ_ONLY", env.CUSTODY_READ_ONLY),
      auditLogPath: flagOrEnv(values["audit-log"], env.CUSTODY_AUDIT_LOG),
      tokenTtlSeconds: ttl === null ? DEFAULT_TOKEN_TTL_SECONDS : readInteger("--token-ttl-seconds", ttl, 10, 3600),
      emulatorKeyFile: flagOrEnv(values["emulator-key-file"], env.CUSTODY_EMULATOR_KEY_FILE),
      http: values.http ? readHttpOptions(values, host, env) : null,
    },
  };
}

export const USAGE = `custody-mcp: MCP server for the custody workspace (stdio by default)

  custody-mcp [options]            serve over stdio
  custody-mcp --http [--port N]    serve Streamable HTTP on 127.0.0.1 (bearer token required)
  custody-mcp verify-audit <file>  verify an audit log's hash chain

Options (environment variable in brackets):
  --base-url URL          the module's base URL [CUSTODY_BASE_URL]; absent: in-process emulator, demo workspace
  --operator NAME         the API operator to act as [CUSTODY_OPERATOR]
  --policy FILE           local policy, JSON [CUSTODY_POLICY]
  --read-only             register no write tool [CUSTODY_READ_ONLY=true]
  --audit-log FILE        audit log, JSONL [CUSTODY_AUDIT_LOG]; default ~/.custody-mcp/audit.jsonl
  --token-ttl-seconds N   confirmation token lifetime, default 300 [CUSTODY_TOKEN_TTL_SECONDS]
  --emulator-key-file F   with --base-url: the key of an emulator started with one [CUSTODY_EMULATOR_KEY_FILE]
  --http --port N --host H   Streamable HTTP; port default ${DEFAULT_HTTP_PORT}, host 127.0.0.1 [CUSTODY_MCP_TOKEN: bearer token]
  --session-idle-seconds N  with --http: close a session idle this long, default ${DEFAULT_SESSION_IDLE_SECONDS} [CUSTODY_MCP_SESSION_IDLE_SECONDS]
  --max-sessions N        with --http: sessions held at once, default ${DEFAULT_MAX_SESSIONS} [CUSTODY_MCP_MAX_SESSIONS]
`;
