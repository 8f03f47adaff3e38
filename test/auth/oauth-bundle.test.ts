import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCustodyServer } from "../bench/support/program-bundles.js";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { freePort } from "../support/free-port.js";
import { startReplica, type ReplicaProcess } from "../support/replica-process.js";

type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

let bundle: string;
let work: string;
let emulator: RunningEmulator;
let authorization: AuthorizationServer;
let replica: ReplicaProcess;
let resource: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "custody-oauth-bundle-"));
  bundle = buildCustodyServer(join(work, "custody-mcp.js"));
  emulator = await startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 10, log: () => {} });
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  authorization = await startAuthorizationServer(await freePort(), resource);
  const secretFile = join(work, "token-secret");
  writeFileSync(secretFile, randomBytes(32), { mode: 0o600 });
  // A replica with people signing in: the token secret, no shared bearer token.
  replica = await startReplica(bundle, "r1", port, {
    HOME: work,
    CUSTODY_BASE_URL: emulator.baseUrl,
    CUSTODY_OPERATOR: "treasury-bot",
    CUSTODY_AUDIT_LOG: join(work, "audit.jsonl"),
    CUSTODY_TOKEN_SECRET_FILE: secretFile,
    CUSTODY_AUTH_ISSUER: authorization.issuer,
    CUSTODY_PUBLIC_URL: resource,
  });
}, 120_000);

afterAll(async () => {
  await replica?.stop();
  await authorization?.stop();
  await emulator?.close();
});

describe("the built server with people signing in", () => {
  it("runs as a replica without a shared bearer token, says whose tokens it takes, and serves a signed-in person", async () => {
    // Written after the line the start waits for, in a chunk of its own: waited for, not read at once.
    await replica.waitForStderr(`signing in through ${authorization.issuer}: access tokens for ${resource} only (no shared bearer token)`);
    expect(replica.stderr()).not.toContain("bearer token (set CUSTODY_MCP_TOKEN");
    const token = await authorization.personToken("carol", ["custody:read"]);
    const client = new Client({ name: "oauth-bundle-test", version: "0" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    try {
      expect(transport.sessionId).toMatch(/^r1\./);
      const result = await client.callTool({ name: "list_accounts", arguments: {} });
      expect(JSON.stringify(result.content)).toContain("sol-treasury");
    } finally {
      await client.close();
    }
    expect((await fetch(resource, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(401);
    await replica.waitForStderr(`authorization server ${authorization.issuer}: signing keys at`);
    expect(replica.stderr()).not.toContain(token);
  });

  it("refuses to start with an issuer but no public URL, naming the setting (exit 2)", () => {
    const run = spawnSync(process.execPath, [bundle, "--http", "--port", "0"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: work, CUSTODY_AUTH_ISSUER: authorization.issuer },
      timeout: 20_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--public-url (CUSTODY_PUBLIC_URL): required with --auth-issuer (CUSTODY_AUTH_ISSUER)");
  });
});
