import { describe, expect, it } from "vitest";
import { DEFAULT_HTTP_PORT } from "../src/config/options.js";
import { readCommand, replicaProblem, type ServerConfig } from "../src/config/server-config.js";

describe("configuration", () => {
  it("reads flags, which win over the environment", () => {
    const command = readCommand(
      ["--base-url", "http://127.0.0.1:1/module", "--operator", "flag-bot", "--read-only", "--token-ttl-seconds", "60", "--watch-interval-seconds", "30"],
      {
        CUSTODY_OPERATOR: "env-bot",
        CUSTODY_MCP_WATCH_INTERVAL_SECONDS: "2",
        CUSTODY_POLICY: "/etc/policy.json",
        CUSTODY_AUDIT_LOG: "/var/audit.jsonl",
      },
    );
    expect(command).toEqual({
      command: "serve",
      config: {
        baseUrl: "http://127.0.0.1:1/module",
        operator: "flag-bot",
        policyPath: "/etc/policy.json",
        readOnly: true,
        confirmation: null,
        confirmOpener: null,
        auditLogPath: "/var/audit.jsonl",
        storeUrl: null,
        tokenSecretFile: null,
        auditSealKeyFile: null,
        tokenTtlSeconds: 60,
        watchIntervalSeconds: 30,
        emulatorKeyFile: null,
        http: null,
      },
    });
  });

  it("defaults to stdio and the embedded workspace", () => {
    expect(readCommand([], {})).toMatchObject({
      command: "serve",
      config: { baseUrl: null, operator: null, readOnly: false, tokenTtlSeconds: 300, watchIntervalSeconds: 5, http: null },
    });
  });

  it("reads the key file of an emulator started with one from --emulator-key-file, else CUSTODY_EMULATOR_KEY_FILE", () => {
    expect(readCommand([], { CUSTODY_EMULATOR_KEY_FILE: "/env/key" })).toMatchObject({ config: { emulatorKeyFile: "/env/key" } });
    expect(readCommand(["--emulator-key-file", "/flag/key"], { CUSTODY_EMULATOR_KEY_FILE: "/env/key" })).toMatchObject({
      config: { emulatorKeyFile: "/flag/key" },
    });
  });

  it("takes the base URL trimmed, as the VS Code extension takes its setting: whitespace around it is not part of the address", () => {
    for (const written of ["\u00a0http://127.0.0.1:1/module\u00a0", " http://127.0.0.1:1/module\r\n", "\u2003http://127.0.0.1:1/module"]) {
      expect(readCommand(["--base-url", written, "--operator", "bot"], {})).toMatchObject({ config: { baseUrl: "http://127.0.0.1:1/module" } });
      expect(readCommand([], { CUSTODY_BASE_URL: written, CUSTODY_OPERATOR: "bot" })).toMatchObject({ config: { baseUrl: "http://127.0.0.1:1/module" } });
    }
  });

  it("reads CUSTODY_READ_ONLY and refuses a value that is not a boolean", () => {
    expect(readCommand([], { CUSTODY_READ_ONLY: "true" })).toMatchObject({ config: { readOnly: true } });
    expect(() => readCommand([], { CUSTODY_READ_ONLY: "maybe" })).toThrow(/^CUSTODY_READ_ONLY: must be true or false/);
  });

  it("reads who confirms from --confirmation, else CUSTODY_CONFIRMATION, and refuses another mode", () => {
    expect(readCommand([], { CUSTODY_CONFIRMATION: "person" })).toMatchObject({ config: { confirmation: "person" } });
    expect(readCommand(["--confirmation", "token"], { CUSTODY_CONFIRMATION: "person" })).toMatchObject({ config: { confirmation: "token" } });
    expect(() => readCommand(["--confirmation", "model"], {})).toThrow(/^--confirmation \(CUSTODY_CONFIRMATION\): token or person, got "model"/);
  });

  it("HTTP: loopback only, default port, the token from the environment", () => {
    const token = "t0ken-of-thirty-two-characters-!";
    expect(readCommand(["--http"], { CUSTODY_MCP_TOKEN: token })).toMatchObject({ config: { http: { port: DEFAULT_HTTP_PORT, host: "127.0.0.1", token } } });
    expect(() => readCommand(["--http"], { CUSTODY_MCP_TOKEN: token.slice(1) })).toThrow(/^CUSTODY_MCP_TOKEN: at least 32 characters, got 31;/);
    expect(readCommand(["--http", "--port", "0", "--host", "::1"], {})).toMatchObject({ config: { http: { port: 0, host: "::1", token: null } } });
    expect(() => readCommand(["--http", "--host", "0.0.0.0"], {})).toThrow(/--host: must be a loopback address/);
    expect(() => readCommand(["--port", "80"], {})).toThrow(
      /--port, --host, --session-idle-seconds, --max-sessions, --replica-id, --public-origin: only with --http/,
    );
    expect(() => readCommand(["--http", "--port", "70000"], {})).toThrow(/--port: must be a whole number from 0 to 65535/);
  });

  it("HTTP sessions: idle time and cap from the flags, else the environment, else 1800 s and 100", () => {
    expect(readCommand(["--http"], {})).toMatchObject({ config: { http: { sessionIdleSeconds: 1800, maxSessions: 100 } } });
    expect(readCommand(["--http"], { CUSTODY_MCP_SESSION_IDLE_SECONDS: "60", CUSTODY_MCP_MAX_SESSIONS: "5" })).toMatchObject({
      config: { http: { sessionIdleSeconds: 60, maxSessions: 5 } },
    });
    expect(readCommand(["--http", "--session-idle-seconds", "1", "--max-sessions=2"], { CUSTODY_MCP_MAX_SESSIONS: "5" })).toMatchObject({
      config: { http: { sessionIdleSeconds: 1, maxSessions: 2 } },
    });
    expect(() => readCommand(["--http"], { CUSTODY_MCP_MAX_SESSIONS: "0" })).toThrow(
      /^--max-sessions \(CUSTODY_MCP_MAX_SESSIONS\): must be a whole number from 1 to 10000, got "0"/,
    );
    expect(() => readCommand(["--http", "--session-idle-seconds", "1.5"], {})).toThrow(
      /^--session-idle-seconds \(CUSTODY_MCP_SESSION_IDLE_SECONDS\): must be a whole number from 1 to 86400/,
    );
    expect(() => readCommand(["--max-sessions", "3"], {})).toThrow(/only with --http/);
  });

  it("verify-audit takes one file or the store; export-audit a database store; unknown flags and commands are refused", () => {
    expect(readCommand(["verify-audit", "a.jsonl"], {})).toEqual({ command: "verify-audit", target: "a.jsonl", sealKeyFile: null });
    expect(readCommand(["verify-audit", "--store", "postgres://u:p@h/db"], {})).toEqual({
      command: "verify-audit",
      target: "postgres://u:p@h/db",
      sealKeyFile: null,
    });
    expect(readCommand(["verify-audit"], { CUSTODY_STORE: "postgresql://h/db" })).toEqual({
      command: "verify-audit",
      target: "postgresql://h/db",
      sealKeyFile: null,
    });
    expect(readCommand(["reseal-audit", "a.jsonl", "--audit-seal-key-file", "/k"], { CUSTODY_AUDIT_SEAL_KEY_FILE: "/env/k" })).toEqual({
      command: "reseal-audit",
      target: "a.jsonl",
      sealKeyFile: "/k",
    });
    expect(readCommand(["verify-audit", "a.jsonl"], { CUSTODY_AUDIT_SEAL_KEY_FILE: "/env/k" })).toEqual({
      command: "verify-audit",
      target: "a.jsonl",
      sealKeyFile: "/env/k",
    });
    expect(() => readCommand(["verify-audit"], {})).toThrow(/give exactly one audit log file, or --store/);
    expect(readCommand(["export-audit"], { CUSTODY_STORE: "postgres://h/db" })).toEqual({ command: "export-audit", storeUrl: "postgres://h/db" });
    expect(() => readCommand(["export-audit", "--store", "/var/audit.jsonl"], {})).toThrow(
      /export-audit: give --store \(CUSTODY_STORE\) naming a postgres:\/\/ store/,
    );
    expect(() => readCommand(["--no-such-flag"], {})).toThrow(/no-such-flag/);
    expect(() => readCommand(["serve"], {})).toThrow(/unknown command "serve"; the commands are verify-audit, reseal-audit and export-audit/);
    expect(() => readCommand(["--token-ttl-seconds", "5"], {})).toThrow(
      /^--token-ttl-seconds \(CUSTODY_TOKEN_TTL_SECONDS\): must be a whole number from 10 to 3600/,
    );
    expect(() => readCommand([], { CUSTODY_MCP_WATCH_INTERVAL_SECONDS: "0" })).toThrow(
      /^--watch-interval-seconds \(CUSTODY_MCP_WATCH_INTERVAL_SECONDS\): must be a whole number from 1 to 3600, got "0"/,
    );
  });

  it("the store: --store (a file, or a postgres:// URL), else --audit-log, else CUSTODY_STORE, else CUSTODY_AUDIT_LOG", () => {
    expect(readCommand(["--store", "postgres://u:p@db:5432/custody"], { CUSTODY_AUDIT_LOG: "/env.jsonl" })).toMatchObject({
      config: { storeUrl: "postgres://u:p@db:5432/custody", auditLogPath: null },
    });
    expect(readCommand(["--store", "/flag.jsonl"], { CUSTODY_STORE: "postgres://h/db" })).toMatchObject({
      config: { storeUrl: null, auditLogPath: "/flag.jsonl" },
    });
    expect(readCommand(["--audit-log", "/flag.jsonl"], { CUSTODY_STORE: "postgres://h/db" })).toMatchObject({
      config: { storeUrl: null, auditLogPath: "/flag.jsonl" },
    });
    expect(readCommand([], { CUSTODY_STORE: "POSTGRESQL://h/db", CUSTODY_AUDIT_LOG: "/env.jsonl" })).toMatchObject({
      config: { storeUrl: "POSTGRESQL://h/db", auditLogPath: null },
    });
    expect(readCommand([], { CUSTODY_AUDIT_LOG: "/env.jsonl" })).toMatchObject({ config: { storeUrl: null, auditLogPath: "/env.jsonl" } });
    expect(readCommand([], {})).toMatchObject({ config: { storeUrl: null, auditLogPath: null } });
    expect(() => readCommand(["--store", "/a.jsonl", "--audit-log", "/b.jsonl"], {})).toThrow(/--store and --audit-log: give one/);
  });

  it("replicas: an id and a public origin with --http only, in their forms; a replica must share the bearer token and the token secret", () => {
    const env = { CUSTODY_MCP_TOKEN: "shared-token-of-the-team-replicas", CUSTODY_TOKEN_SECRET_FILE: "/run/secret" };
    const command = readCommand(["--http", "--replica-id", "r1", "--public-origin", "https://custody.example:8443/"], env);
    expect(command).toMatchObject({ config: { tokenSecretFile: "/run/secret", http: { replicaId: "r1", publicOrigin: "https://custody.example:8443" } } });
    expect(replicaProblem((command as { config: ServerConfig }).config)).toBeNull();
    expect(readCommand(["--http"], { ...env, CUSTODY_MCP_REPLICA_ID: "r2", CUSTODY_MCP_PUBLIC_ORIGIN: "http://127.0.0.1:8080" })).toMatchObject({
      config: { http: { replicaId: "r2", publicOrigin: "http://127.0.0.1:8080" } },
    });
    expect(() => readCommand(["--http", "--replica-id", "R.1"], env)).toThrow(/--replica-id \(CUSTODY_MCP_REPLICA_ID\): 1 to 32 lower-case letters/);
    expect(() => readCommand(["--http", "--public-origin", "https://custody.example/mcp"], env)).toThrow(
      /--public-origin \(CUSTODY_MCP_PUBLIC_ORIGIN\): an origin/,
    );
    expect(() => readCommand(["--http", "--public-origin", "ftp://custody.example"], env)).toThrow(/an origin/);
    expect(() => readCommand(["--replica-id", "r1"], env)).toThrow(/only with --http/);
    const alone = readCommand(["--http", "--replica-id", "r1"], {}) as { config: ServerConfig };
    expect(replicaProblem(alone.config)).toBe(
      "--replica-id (CUSTODY_MCP_REPLICA_ID): replicas must share the bearer token (CUSTODY_MCP_TOKEN) and the " +
        "token secret (--token-secret-file, CUSTODY_TOKEN_SECRET_FILE); set it on every replica",
    );
  });
});
