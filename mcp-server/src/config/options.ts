/**
 * One command-line option, declared once: the flag (null: environment only, a secret argv would show),
 * its environment variable, type, value name, range, default and help. parseArgs' table, the
 * environment look-ups, the error texts, --help and the README's options table are made from these.
 */
/** What an option needs beside it. */
export type OnlyWith = "http" | "sign-in" | "page-sign-in";

export interface OptionDeclaration {
  /** Without its dashes. */
  flag: string | null;
  env: string | null;
  type: "string" | "boolean";
  /** What the value is in --help (URL, FILE, N); none for a boolean. */
  value?: string;
  /** A whole number's range. */
  range?: { min: number; max: number };
  default?: number | string;
  /** Only with --http: for the transport, for signing in, or for the confirmation page's sign-in (with --auth-issuer too). */
  only?: OnlyWith;
  /** Its value is a secret: no flag (a command line is visible to every user), and the opening cache's key takes only whether it is set. */
  secret?: true;
  help: string;
}

export const DEFAULT_HTTP_PORT = 7531;
export const DEFAULT_TOKEN_TTL_SECONDS = 300;
export const DEFAULT_WATCH_INTERVAL_SECONDS = 5;
export const DEFAULT_SESSION_IDLE_SECONDS = 1800;
export const DEFAULT_MAX_SESSIONS = 100;

export const OPTIONS = {
  baseUrl: {
    flag: "base-url",
    env: "CUSTODY_BASE_URL",
    type: "string",
    value: "URL",
    help: "the module's base URL; absent: the embedded demo workspace (the emulator in-process)",
  },
  operator: { flag: "operator", env: "CUSTODY_OPERATOR", type: "string", value: "NAME", help: "the API operator to act as (required with a base URL)" },
  policy: { flag: "policy", env: "CUSTODY_POLICY", type: "string", value: "FILE", help: "the local policy file, JSON" },
  readOnly: { flag: "read-only", env: "CUSTODY_READ_ONLY", type: "boolean", help: "register no write tool at all (the variable: true or false)" },
  confirmation: {
    flag: "confirmation",
    env: "CUSTODY_CONFIRMATION",
    type: "string",
    value: "MODE",
    help:
      "who confirms a write: token (the default: whoever holds the dry run's confirmation token; a client that " +
      "shows forms asks the person first) or person (only the person, in their client's form or on the server's " +
      "confirmation page); the stricter of this and the policy's confirmation applies",
  },
  confirmOpener: {
    flag: "confirm-opener",
    env: "CUSTODY_CONFIRM_OPENER",
    type: "string",
    value: "CMD",
    help:
      "in person mode, the command that opens the confirmation page's own link (the only one that " +
      "can confirm; never shown to the model) in the person's browser, the link as its last " +
      "argument (words split on spaces, no shell); none: no page; default xdg-open, open on " +
      "macOS, rundll32 url.dll,FileProtocolHandler on Windows",
  },
  auditLog: {
    flag: "audit-log",
    env: "CUSTODY_AUDIT_LOG",
    type: "string",
    value: "FILE",
    help:
      "the audit log, JSONL; default ~/.custody-mcp/audit.jsonl, the VS Code extension's default too, so both count one daily allowance; " +
      "a regular file, not a link to one (a folder on its path may be a link)",
  },
  store: {
    flag: "store",
    env: "CUSTODY_STORE",
    type: "string",
    value: "FILE|URL",
    help:
      "the guard's store: a file is the audit log above (the embedded store); a " +
      "postgres://user:password@host:port/database URL keeps the audit chain, the daily limits, " +
      "the dry runs and the nonces in PostgreSQL, shared by replicas (the server creates and " +
      "migrates its schema; the password is never shown); absent: the audit log",
  },
  tokenSecretFile: {
    flag: "token-secret-file",
    env: "CUSTODY_TOKEN_SECRET_FILE",
    type: "string",
    value: "F",
    help: "32 or more random bytes that replicas share, so a confirmation token one issues opens on another; absent: a random key per process",
  },
  auditSealKeyFile: {
    flag: "audit-seal-key-file",
    env: "CUSTODY_AUDIT_SEAL_KEY_FILE",
    type: "string",
    value: "F",
    help:
      "32 or more random bytes sealing the audit log's tail (replicas share one); absent: " +
      "~/.custody-mcp/audit-seal.key, created on first use, shared with the VS Code extension",
  },
  tokenTtlSeconds: {
    flag: "token-ttl-seconds",
    env: "CUSTODY_TOKEN_TTL_SECONDS",
    type: "string",
    value: "N",
    range: { min: 10, max: 3600 },
    default: DEFAULT_TOKEN_TTL_SECONDS,
    help: "confirmation token lifetime in seconds",
  },
  watchIntervalSeconds: {
    flag: "watch-interval-seconds",
    env: "CUSTODY_MCP_WATCH_INTERVAL_SECONDS",
    type: "string",
    value: "N",
    range: { min: 1, max: 3600 },
    default: DEFAULT_WATCH_INTERVAL_SECONDS,
    help: "how often an account or transaction someone is subscribed to is read again, to notify its changes, in seconds",
  },
  emulatorKeyFile: {
    flag: "emulator-key-file",
    env: "CUSTODY_EMULATOR_KEY_FILE",
    type: "string",
    value: "F",
    help: "with a base URL: the key of an emulator started with one, sent as X-Emulator-Key",
  },
  http: { flag: "http", env: null, type: "boolean", help: "Streamable HTTP instead of stdio" },
  port: { flag: "port", env: null, type: "string", value: "N", range: { min: 0, max: 65_535 }, default: DEFAULT_HTTP_PORT, only: "http", help: "the port" },
  host: {
    flag: "host",
    env: null,
    type: "string",
    value: "H",
    default: "127.0.0.1",
    only: "http",
    help: "the host, loopback only (127.0.0.1, localhost or ::1)",
  },
  token: {
    flag: null,
    env: "CUSTODY_MCP_TOKEN",
    type: "string",
    secret: true,
    help: "the bearer token every request carries (at least 32 characters); unset: a fresh one printed on stderr",
  },
  sessionIdleSeconds: {
    flag: "session-idle-seconds",
    env: "CUSTODY_MCP_SESSION_IDLE_SECONDS",
    type: "string",
    value: "N",
    range: { min: 1, max: 86_400 },
    default: DEFAULT_SESSION_IDLE_SECONDS,
    only: "http",
    help: "a session with no request open for this long, in seconds, is closed; its client must initialize again",
  },
  maxSessions: {
    flag: "max-sessions",
    env: "CUSTODY_MCP_MAX_SESSIONS",
    type: "string",
    value: "N",
    range: { min: 1, max: 10_000 },
    default: DEFAULT_MAX_SESSIONS,
    only: "http",
    help: "sessions held at once; an initialize beyond is refused with 503",
  },
  replicaId: {
    flag: "replica-id",
    env: "CUSTODY_MCP_REPLICA_ID",
    type: "string",
    value: "ID",
    only: "http",
    help: "behind a load balancer: session ids start with ID., for the balancer to route each session back to its replica",
  },
  publicOrigin: {
    flag: "public-origin",
    env: "CUSTODY_MCP_PUBLIC_ORIGIN",
    type: "string",
    value: "URL",
    only: "http",
    help: "behind a load balancer: the origin clients reach (https://custody.example:8443), accepted in Host and Origin besides loopback",
  },
  authIssuer: {
    flag: "auth-issuer",
    env: "CUSTODY_AUTH_ISSUER",
    type: "string",
    value: "URL",
    only: "sign-in",
    help:
      "with --http: people sign in at this OAuth issuer (its metadata gives its keys) and every request " +
      "carries their access token, checked for this server (custody:read; custody:write for tools that " +
      "change something); the shared bearer token is then not accepted",
  },
  publicUrl: {
    flag: "public-url",
    env: "CUSTODY_PUBLIC_URL",
    type: "string",
    value: "URL",
    only: "sign-in",
    help:
      "with --auth-issuer: this server's resource URL as clients reach it " +
      "(https://custody.example.com/mcp), the access tokens' audience; its origin is accepted in Host and Origin",
  },
  confirmClientId: {
    flag: "confirm-client-id",
    env: "CUSTODY_CONFIRM_CLIENT_ID",
    type: "string",
    value: "ID",
    only: "page-sign-in",
    help:
      "with --auth-issuer, person mode: the issuer's client the confirmation page signs the " +
      "person in through (authorization code with PKCE; redirect URI <public " +
      "origin>/confirm/callback); without it the page refuses signed-in people",
  },
  confirmClientSecretFile: {
    flag: "confirm-client-secret-file",
    env: "CUSTODY_CONFIRM_CLIENT_SECRET_FILE",
    type: "string",
    value: "F",
    only: "page-sign-in",
    help: "that client's secret, for a confidential client; never logged",
  },
  confirmClientSecret: {
    flag: null,
    env: "CUSTODY_CONFIRM_CLIENT_SECRET",
    type: "string",
    secret: true,
    help: "the confirmation page client's secret itself, instead of its file (no flag: a command line is visible to every user); never logged",
  },
} as const satisfies Record<string, OptionDeclaration>;

export type OptionName = keyof typeof OPTIONS;
const DECLARED: readonly OptionDeclaration[] = Object.values(OPTIONS);

/** How an error text names the setting: `--flag (ENV)`, or the one of them there is. */
export function settingName(option: OptionDeclaration): string {
  if (option.flag === null) return option.env ?? "";
  return option.env === null ? `--${option.flag}` : `--${option.flag} (${option.env})`;
}

/** parseArgs' table: every flag, and -h. */
export function parseArgsOptions(): Record<string, { type: "string" | "boolean"; short?: string }> {
  const table: Record<string, { type: "string" | "boolean"; short?: string }> = { help: { type: "boolean", short: "h" } };
  for (const option of DECLARED) if (option.flag !== null) table[option.flag] = { type: option.type };
  return table;
}

/** The flags only --http takes, for its refusal. */
export function flagsOnlyWith(only: OnlyWith): string[] {
  return DECLARED.filter((option) => option.only === only && option.flag !== null).map((option) => `--${option.flag}`);
}

function whatItTakes(option: OptionDeclaration): string {
  const range = option.range === undefined ? "" : `, ${option.range.min} to ${option.range.max}`;
  const fallback = option.default === undefined ? "" : `; default ${option.default}`;
  return `${option.only === "http" ? "with --http: " : ""}${option.help}${range}${fallback}`;
}

/** Words on lines of at most `width` characters. */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

const NAME_COLUMN = 28;
const HELP_WIDTH = 90;

/** The options part of --help: one entry per option, its variable in brackets. */
export function usageOptions(): string {
  return DECLARED.map((option) => {
    const name = option.flag === null ? "(environment only)" : `--${option.flag}${option.value === undefined ? "" : ` ${option.value}`}`;
    const variable = option.env === null ? "" : ` [${option.env}]`;
    const [first, ...rest] = wrapped(`${whatItTakes(option)}${variable}`, HELP_WIDTH);
    return [`  ${`${name} `.padEnd(NAME_COLUMN)}${first}`, ...rest.map((line) => `  ${" ".repeat(NAME_COLUMN)}${line}`)].join("\n");
  }).join("\n");
}

/** The README's options table (a test keeps it equal to this). */
export function optionsTable(): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const rows = DECLARED.map((option) => {
    const flag = option.flag === null ? "" : `\`--${option.flag}${option.value === undefined ? "" : ` ${option.value}`}\``;
    const env = option.env === null ? "" : `\`${option.env}\``;
    return `| ${flag} | ${env} | ${cell(whatItTakes(option))} |`;
  });
  return ["| Flag | Environment variable | What it sets |", "| --- | --- | --- |", ...rows].join("\n");
}
