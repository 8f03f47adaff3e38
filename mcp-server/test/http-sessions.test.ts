import type { RunningEmulator } from "@custody/emulator";
import { StreamableHTTPClientTransport, type Client } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { startTestEmulator, testClient, testContext } from "./harness/mcp-harness.js";
import { rawMcpPost } from "./harness/raw-mcp-post.js";

// Sessions of the Streamable HTTP transport: closed after an idle time, capped, and let go when
// they end, through a real MCP client over loopback.

const TOKEN = "test-bearer-token-0123456789";
const authorized = { Authorization: `Bearer ${TOKEN}` };
let emulator: RunningEmulator;
let server: RunningHttpServer | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await emulator.close();
});

async function serve(sessionIdleSeconds: number, maxSessions: number): Promise<RunningHttpServer> {
  server = await startHttpServer(
    testContext(emulator).ctx,
    { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds, maxSessions, replicaId: null, publicOrigin: null, oauth: null },
    () => {},
  );
  return server;
}

async function connect(http: RunningHttpServer): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: authorized } });
  const client = testClient();
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const rawPost = (port: number, headers: Record<string, string>, body?: string) => rawMcpPost(port, { ...authorized, ...headers }, body);

describe("Streamable HTTP sessions", () => {
  it("keeps a connected session past the idle time, closes one whose client went away, and answers its id 404", async () => {
    const http = await serve(1, 10);
    const { client, transport } = await connect(http);
    const sessionId = transport.sessionId as string;
    expect(http.sessions).toBe(1);
    // Connected (its GET stream open): not idle, whatever the time.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(http.sessions).toBe(1);
    // Gone without ending its session (no DELETE): closed after a second with no request open.
    await client.close();
    await until(() => http.sessions === 0, "the idle session to be closed");
    const expired = await rawPost(http.port, { "mcp-session-id": sessionId }, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }));
    expect(expired.status).toBe(404);
    expect(expired.body).toContain("initialize a new session");
    await connect(http);
    expect(http.sessions).toBe(1);
  });

  it("refuses an initialize beyond the cap with a message naming the limit and its setting, and takes one again once a session ends", async () => {
    const http = await serve(1800, 2);
    const first = await connect(http);
    const second = await connect(http);
    expect(http.sessions).toBe(2);
    const third = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: authorized } });
    const refused = testClient().connect(third);
    await expect(refused).rejects.toThrow(/at most 2 MCP sessions at once \(CUSTODY_MCP_MAX_SESSIONS/);
    const raw = await rawPost(http.port, {});
    expect(raw.status).toBe(503);
    expect(JSON.parse(raw.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringContaining("Too many sessions") } });
    // The sessions held are not disturbed.
    expect((await first.client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await second.client.listTools()).tools.length).toBeGreaterThan(0);
    await first.transport.terminateSession();
    await until(() => http.sessions === 1, "the ended session to be let go");
    await connect(http);
    expect(http.sessions).toBe(2);
  });
});
