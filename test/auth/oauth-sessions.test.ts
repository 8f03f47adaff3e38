import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "@custody/emulator";
import { readCommand, startContext, startHttpServer, type RunningHttpServer, type ServerConfig, type StartedContext } from "@custody/mcp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type AuthorizationServer } from "../support/authorization-server.js";
import { freePort } from "../support/free-port.js";

// What a signed-in person may hold on a server: a session only when the policy gives them
// something, a tenth of the places at most, and a standing stream no longer than their token;
// the same for 2026-07-28 listen streams, which name only resources their role may read.

type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;
const PROTOCOL_VERSION = "2025-11-25";

let authorization: AuthorizationServer;
let emulator: RunningEmulator;
let started: StartedContext;
let server: RunningHttpServer;
let resource: string;
let auditLog: string;

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  authorization = await startAuthorizationServer(await freePort(), resource);
  emulator = await startEmulator({ dataDir: null, seed: "demo", port: 0, processingDelayMs: 10, log: () => {} });
  const work = mkdtempSync(join(tmpdir(), "custody-oauth-sessions-"));
  const policy = join(work, "policy.json");
  auditLog = join(work, "audit.jsonl");
  writeFileSync(
    policy,
    JSON.stringify({
      roles: [
        { name: "treasury", when: { groups: ["treasury-operators"] } },
        { name: "approvers", when: { groups: ["treasury-approvers"] }, tools: { deny: ["get_transaction"] } },
      ],
    }),
  );
  const command = readCommand(
    [
      "--http",
      "--port",
      String(port),
      "--max-sessions",
      "20",
      "--auth-issuer",
      authorization.issuer,
      "--public-url",
      resource,
      "--base-url",
      emulator.baseUrl,
      "--operator",
      "treasury-bot",
      "--policy",
      policy,
      "--audit-log",
      auditLog,
    ],
    {},
  );
  const config = (command as { config: ServerConfig }).config;
  started = await startContext(config, () => {});
  server = await startHttpServer(started.ctx, config.http!, () => {});
}, 60_000);

afterAll(async () => {
  await server?.close();
  await started?.close();
  await emulator?.close();
  await authorization?.stop();
});

async function request(token: string, method: "POST" | "GET" | "DELETE", sessionId?: string): Promise<Response> {
  return fetch(resource, {
    method,
    headers: {
      Accept: "application/json, text/event-stream",
      "Content-Type": "application/json",
      "MCP-Protocol-Version": PROTOCOL_VERSION,
      Authorization: `Bearer ${token}`,
      ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
    },
    ...(method === "POST"
      ? {
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
          }),
        }
      : {}),
  });
}

/** Resolves once the stream's body is done, expecting that to be when the token (a 3-second one) expired, not at once nor long after. */
async function expectEndAtExpiry(stream: Response): Promise<void> {
  expect(stream.status).toBe(200);
  const startedAt = Date.now();
  await stream.text();
  const lasted = Date.now() - startedAt;
  expect(lasted).toBeGreaterThan(1000);
  expect(lasted).toBeLessThan(8000);
}

async function initialize(token: string): Promise<{ status: number; sessionId: string | null; body: string }> {
  const response = await request(token, "POST");
  return { status: response.status, sessionId: response.headers.get("mcp-session-id"), body: await response.text() };
}

describe("sessions of signed-in people", () => {
  it("opens none for a person the policy gives nothing: they cannot hold places the team needs", async () => {
    const bob = await initialize(await authorization.personToken("bob", ["custody:read", "custody:write"]));
    expect(bob.status).toBe(403);
    expect(bob.body).toContain("no role of the local policy matches you (subject bob; groups treasury-viewers");
    expect(server.sessions).toBe(0);
    // Nor does any other request of theirs reach further: a batch of writes is refused before its scope is even looked at, and writes no line.
    const token = await authorization.personToken("bob", ["custody:read"]);
    const writes = Array.from({ length: 5 }, (_, id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "create_transaction", arguments: {} } }));
    const batch = await fetch(resource, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
      body: JSON.stringify(writes),
    });
    expect(batch.status).toBe(403);
    expect(await batch.text()).toContain("no role of the local policy matches you");
    expect(existsSync(auditLog) ? readFileSync(auditLog, "utf8") : "").toBe("");
  });

  it("lets one person hold a tenth of the places (2 of 20), and another place once one is ended", async () => {
    const token = await authorization.personToken("alice", ["custody:read"]);
    const first = await initialize(token);
    const second = await initialize(token);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await initialize(token);
    expect(third.status).toBe(429);
    expect(third.body).toContain("you hold 2 MCP sessions on this server already, the most one person may");
    expect((await request(token, "DELETE", first.sessionId ?? "")).status).toBe(200);
    const again = await initialize(token);
    expect(again.status).toBe(200);
    for (const id of [second.sessionId, again.sessionId]) await request(token, "DELETE", id ?? "");
  });

  it("ends a session's standing stream when the token that opened it expires", async () => {
    const token = await authorization.signedWithProviderKey({ exp: Math.floor(Date.now() / 1000) + 3 });
    const opened = await initialize(token);
    expect(opened.status, opened.body).toBe(200);
    // The stream sends nothing; it ends (its body is done) when the token does.
    await expectEndAtExpiry(await request(token, "GET", opened.sessionId ?? ""));
    await request(await authorization.signedWithProviderKey({}), "DELETE", opened.sessionId ?? "");
  });
});

/** A raw 2026-07-28 subscriptions/listen request (for the account with id 1 unless told); its response is the stream. */
function listen(token: string, signal?: AbortSignal, uri = "custody://accounts/1"): Promise<Response> {
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return fetch(resource, {
    method: "POST",
    headers: {
      Accept: "application/json, text/event-stream",
      "Content-Type": "application/json",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "subscriptions/listen",
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "subscriptions/listen",
      params: { notifications: { resourceSubscriptions: [uri] }, _meta: envelope },
    }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Resolves once the stream's first event (the acknowledgement) has come: the stream is open and counted. */
async function acknowledged(response: Response): Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain("notifications/subscriptions/acknowledged");
  reader.releaseLock();
}

describe("subscriptions/listen streams of signed-in people", () => {
  it("lets one person hold a tenth of the places (2 of 20) as listen streams, and another once one is closed", async () => {
    const token = await authorization.personToken("alice", ["custody:read"]);
    const closeFirst = new AbortController();
    const first = await listen(token, closeFirst.signal);
    const closeSecond = new AbortController();
    const second = await listen(token, closeSecond.signal);
    expect([first.status, second.status]).toEqual([200, 200]);
    await Promise.all([acknowledged(first), acknowledged(second)]);
    const third = await listen(token);
    expect(third.status).toBe(429);
    expect(await third.text()).toContain("you hold 2 subscriptions/listen streams on this server already, the most one person may");
    closeFirst.abort();
    // The place is given back once the server has seen the stream close: asked again until it has.
    let again = await listen(token);
    for (let tries = 0; again.status === 429 && tries < 100; tries += 1) {
      await again.text();
      await new Promise((resolve) => setImmediate(resolve));
      again = await listen(token);
    }
    expect(again.status).toBe(200);
    await again.body?.cancel();
    closeSecond.abort();
  });

  it("ends a listen stream when the token that opened it expires", async () => {
    const token = await authorization.signedWithProviderKey({ exp: Math.floor(Date.now() / 1000) + 3 });
    // Past its acknowledgement the stream sends nothing (keep-alives aside); it ends when the token does.
    await expectEndAtExpiry(await listen(token));
  });

  it("refuses a stream naming a transaction the person's role may not read", async () => {
    const token = await authorization.personToken("carol", ["custody:read"]);
    const refused = await listen(token, undefined, "custody://transactions/1");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(
      "params.notifications.resourceSubscriptions: custody://transactions/1: your role may not read transactions, so it may not subscribe to one",
    );
    const allowed = await listen(token);
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();
  });
});
