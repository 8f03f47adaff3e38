import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  readCommand,
  replicaProblem,
  startContext,
  startHttpServer,
  type RunningHttpServer,
  type ServerConfig,
  type StartedContext,
} from "@custody/mcp-server";
import { generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port.js";

const ISSUER = "https://login.example.com/realms/custody";
const PUBLIC_URL = "https://custody.example.com/mcp";
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

const serve = (argv: string[], env: Record<string, string> = {}) => (readCommand(argv, env) as { config: ServerConfig }).config;

describe("the OAuth settings", () => {
  it("read the issuer and the public URL, from flags or the environment; the public URL's origin joins the Host/Origin check", () => {
    const http = serve(["--http", "--auth-issuer", ISSUER, "--public-url", PUBLIC_URL]).http;
    expect(http).toMatchObject({ oauth: { issuer: ISSUER, resource: PUBLIC_URL }, publicOrigin: "https://custody.example.com", token: null });
    expect(serve(["--http"], { CUSTODY_AUTH_ISSUER: ISSUER, CUSTODY_PUBLIC_URL: PUBLIC_URL }).http?.oauth).toEqual({ issuer: ISSUER, resource: PUBLIC_URL });
    expect(serve(["--http"], {}).http?.oauth).toBeNull();
  });

  it("read the confirmation page's client: its id, and a secret from a file or the environment (not both), with an issuer only", () => {
    const withIssuer = ["--http", "--auth-issuer", ISSUER, "--public-url", PUBLIC_URL];
    expect(serve([...withIssuer, "--confirm-client-id", "custody-page", "--confirm-client-secret-file", "/run/page-secret"]).http?.oauth).toEqual({
      issuer: ISSUER,
      resource: PUBLIC_URL,
      confirmClient: { clientId: "custody-page", secretFile: "/run/page-secret", secret: null },
    });
    expect(serve(withIssuer, { CUSTODY_CONFIRM_CLIENT_ID: "custody-page", CUSTODY_CONFIRM_CLIENT_SECRET: "s3cret" }).http?.oauth?.confirmClient).toEqual({
      clientId: "custody-page",
      secretFile: null,
      secret: "s3cret",
    });
    expect(serve(withIssuer, { CUSTODY_CONFIRM_CLIENT_ID: "custody-page" }).http?.oauth?.confirmClient).toEqual({
      clientId: "custody-page",
      secretFile: null,
      secret: null,
    });
    expect(() => readCommand(["--http", "--confirm-client-id", "custody-page"], {})).toThrow(
      /--confirm-client-id \(CUSTODY_CONFIRM_CLIENT_ID\): only with --auth-issuer/,
    );
    expect(() => readCommand(["--confirm-client-id", "custody-page"], {})).toThrow(/--confirm-client-id, --confirm-client-secret-file: only with --http/);
    expect(() => readCommand(withIssuer, { CUSTODY_CONFIRM_CLIENT_SECRET: "s3cret" })).toThrow(/only with --confirm-client-id/);
    expect(() => readCommand([...withIssuer, "--confirm-client-id", "custody page"], {})).toThrow(/printable characters without spaces/);
    let refused = "";
    try {
      readCommand([...withIssuer, "--confirm-client-id", "custody-page", "--confirm-client-secret-file", "/run/page-secret"], {
        CUSTODY_CONFIRM_CLIENT_SECRET: "s3cret",
      });
    } catch (error) {
      refused = (error as Error).message;
    }
    expect(refused).toMatch(/give one/);
    // The secret is never quoted back.
    expect(refused).not.toContain("s3cret");
  });

  /** Starts a server whose page client's secret is in `secretFile`, and expects the start to be refused with `refusal`. */
  async function expectSecretFileRefused(secretFile: string, refusal: RegExp): Promise<void> {
    const config = serve([
      "--http",
      "--port",
      "0",
      "--auth-issuer",
      ISSUER,
      "--public-url",
      PUBLIC_URL,
      "--confirm-client-id",
      "custody-page",
      "--confirm-client-secret-file",
      secretFile,
    ]);
    const started = await startContext(
      { ...config, baseUrl: "http://127.0.0.1:9", operator: "treasury-bot", auditLogPath: join(mkdtempSync(join(tmpdir(), "custody-page-")), "audit.jsonl") },
      () => {},
    );
    try {
      await expect(startHttpServer(started.ctx, config.http!, () => {})).rejects.toThrow(refusal);
    } finally {
      await started.close();
    }
  }

  it("refuse to start a server whose page client's secret file cannot be read", async () => {
    await expectSecretFileRefused(
      join(mkdtempSync(join(tmpdir(), "custody-page-")), "missing"),
      /--confirm-client-secret-file \(CUSTODY_CONFIRM_CLIENT_SECRET_FILE\): cannot read .*missing \(ENOENT\)/,
    );
  });

  it.skipIf(process.platform === "win32")("refuse to start a server whose page client's secret file others may read, never quoting it", async () => {
    const secretFile = join(mkdtempSync(join(tmpdir(), "custody-page-")), "page-secret");
    writeFileSync(secretFile, "page-client-s3cret\n", { mode: 0o600 });
    chmodSync(secretFile, 0o644);
    await expectSecretFileRefused(
      secretFile,
      /^--confirm-client-secret-file \(CUSTODY_CONFIRM_CLIENT_SECRET_FILE\): .*page-secret is not kept secret: .*mode 0644/,
    );
    await expectSecretFileRefused(secretFile, /^(?![\s\S]*s3cret)/);
  });

  it("name the setting that is missing or wrong", () => {
    expect(() => readCommand(["--http"], { CUSTODY_AUTH_ISSUER: ISSUER })).toThrow(
      /^--public-url \(CUSTODY_PUBLIC_URL\): required with --auth-issuer \(CUSTODY_AUTH_ISSUER\)/,
    );
    expect(() => readCommand(["--http", "--public-url", PUBLIC_URL], {})).toThrow(/--public-url \(CUSTODY_PUBLIC_URL\): only with --auth-issuer/);
    expect(() => readCommand(["--http", "--auth-issuer", ISSUER, "--public-url", "https://custody.example.com/mcp?tenant=1"], {})).toThrow(
      /CUSTODY_PUBLIC_URL\): this server's resource URL must be without query or fragment/,
    );
    expect(() => readCommand(["--http", "--auth-issuer", ISSUER, "--public-url", "https://custody.example.com/mcp#x"], {})).toThrow(
      /without query or fragment/,
    );
    // The audience is compared exactly: a URL that reads back otherwise (a trailing slash, upper case) is refused, naming how to write it.
    expect(() => readCommand(["--http", "--auth-issuer", ISSUER, "--public-url", "https://custody.example.com"], {})).toThrow(
      /write it as "https:\/\/custody.example.com\/"/,
    );
    expect(() => readCommand(["--http", "--auth-issuer", ISSUER, "--public-url", "https://Custody.Example.com/mcp"], {})).toThrow(
      /write it as "https:\/\/custody.example.com\/mcp"/,
    );
    expect(() => readCommand(["--http", "--auth-issuer", ISSUER, "--public-url", "http://custody.example.com/mcp"], {})).toThrow(
      /CUSTODY_PUBLIC_URL\).*https \(plain http only on a loopback host\)/,
    );
    expect(() => readCommand(["--http", "--auth-issuer", "http://login.example.com", "--public-url", PUBLIC_URL], {})).toThrow(
      /--auth-issuer \(CUSTODY_AUTH_ISSUER\): the issuer must be https/,
    );
    expect(() => readCommand(["--http", "--auth-issuer", "login.example.com", "--public-url", PUBLIC_URL], {})).toThrow(
      /CUSTODY_AUTH_ISSUER\): the issuer must be an absolute http\(s\) URL/,
    );
    expect(() => readCommand(["--auth-issuer", ISSUER, "--public-url", PUBLIC_URL], {})).toThrow(/--auth-issuer, --public-url: only with --http/);
    expect(() => readCommand(["--http", "--auth-issuer", ISSUER, "--public-url", PUBLIC_URL, "--public-origin", "https://other.example.com"], {})).toThrow(
      /name different origins/,
    );
    expect(() => readCommand(["--http"], { CUSTODY_AUTH_ISSUER: ISSUER, CUSTODY_PUBLIC_URL: PUBLIC_URL, CUSTODY_MCP_TOKEN: "shared" })).toThrow(
      /CUSTODY_MCP_TOKEN and --auth-issuer \(CUSTODY_AUTH_ISSUER\): give one/,
    );
    // Plain http is for loopback only (the tests' issuer, a developer's machine).
    expect(serve(["--http", "--auth-issuer", "http://127.0.0.1:9000", "--public-url", "http://localhost:7531/mcp"]).http?.oauth).toEqual({
      issuer: "http://127.0.0.1:9000",
      resource: "http://localhost:7531/mcp",
    });
  });

  it("a replica with an issuer needs no shared bearer token, but still the token secret", () => {
    const env = { CUSTODY_AUTH_ISSUER: ISSUER, CUSTODY_PUBLIC_URL: PUBLIC_URL };
    expect(replicaProblem(serve(["--http", "--replica-id", "r1"], env))).toBe(
      "--replica-id (CUSTODY_MCP_REPLICA_ID): replicas must share the token secret (--token-secret-file, CUSTODY_TOKEN_SECRET_FILE); set it on every replica",
    );
    expect(replicaProblem(serve(["--http", "--replica-id", "r1"], { ...env, CUSTODY_TOKEN_SECRET_FILE: "/run/secret" }))).toBeNull();
  });
});

describe("serving", () => {
  let started: StartedContext | undefined;
  let server: RunningHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    await started?.close();
  });

  async function start(argv: string[], env: Record<string, string> = {}): Promise<RunningHttpServer> {
    const work = mkdtempSync(join(tmpdir(), "custody-oauth-settings-"));
    const config = serve([...argv, "--audit-log", join(work, "audit.jsonl")], env);
    started = await startContext(config, () => {});
    server = await startHttpServer(started.ctx, config.http!, () => {});
    return server;
  }

  it("without an issuer the shared bearer token works as before, and there is no metadata document", async () => {
    const running = await start(["--http", "--port", "0"], { CUSTODY_MCP_TOKEN: "shared-token-0123456789abcdefghij" });
    expect(running.token).toBe("shared-token-0123456789abcdefghij");
    const post = (headers: Record<string, string>) =>
      fetch(running.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
        body: initialize,
      });
    const refused = await post({});
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="custody-mcp"');
    expect((await post({ Authorization: "Bearer shared-token-0123456789abcdefghij" })).status).toBe(200);
    expect((await fetch(new URL("/.well-known/oauth-protected-resource/mcp", running.url))).status).toBe(404);
  });

  it("starts while the authorization server is down, and answers a token it cannot check 503 (not 401) with a retry time", async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${await freePort()}`;
    const resource = `http://127.0.0.1:${port}/mcp`;
    const running = await start(["--http", "--port", String(port), "--auth-issuer", issuer, "--public-url", resource]);
    expect(running.token).toBeNull();
    const { privateKey } = await generateKeyPair("ES256");
    const token = await new SignJWT({ scope: "custody:read" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k" })
      .setIssuer(issuer)
      .setAudience(resource)
      .setSubject("alice")
      .setExpirationTime("5m")
      .setJti(randomBytes(8).toString("hex"))
      .sign(privateKey);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await fetch(resource, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
        body: initialize,
      });
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      const message = ((await answer.json()) as { error: { message: string } }).error.message;
      expect(message).toMatch(/a token cannot be checked now: the authorization server's metadata could not be read \(.*ECONNREFUSED/);
      expect(message).not.toContain(token);
    }
    // The refusals that need no keys are still 401.
    const foreign = await fetch(resource, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer not-a-jwt" },
      body: initialize,
    });
    expect(foreign.status).toBe(401);
  });
});
