import { join } from "node:path";
import type { RunningEmulator } from "@custody/emulator";
import { StreamableHTTPClientTransport, type Client, type ClientCapabilities } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { buildBundle } from "./harness/built-bundle.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { call, startTestEmulator, testContext } from "./harness/mcp-harness.js";
import { MODERN, modernClient, modernRequest } from "./harness/modern-client.js";
import { rawMcpPost } from "./harness/raw-mcp-post.js";
import { RawStdioServer } from "./harness/raw-stdio-server.js";
import { expectWriteToOutliveShutdown } from "./harness/shutdown-under-way.js";
import { childHome, tempDir } from "./harness/temp-dirs.js";

// The 2026-07-28 revision beside 2025-11-25, on the same endpoint and on stdio, through the SDK's
// v2 client pinned to the revision (no initialize, no session) and raw requests on loopback.

const TOKEN = "test-bearer-token-0123456789";
const HTTP_OPTIONS = { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null };
const authorized = { Authorization: `Bearer ${TOKEN}` };
let emulator: RunningEmulator;
let http: RunningHttpServer;
let bundle: string;

beforeAll(async () => {
  bundle = buildBundle();
  emulator = await startTestEmulator();
  http = await startHttpServer(testContext(emulator).ctx, HTTP_OPTIONS, () => {});
}, 60_000);
afterAll(async () => {
  await http?.close();
  await emulator?.close();
});

async function overHttp(capabilities: ClientCapabilities = {}, server: RunningHttpServer = http): Promise<Client> {
  const client = modernClient(capabilities);
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: authorized } }));
  return client;
}

async function overStdio(): Promise<Client> {
  const env = {
    PATH: process.env.PATH ?? "",
    ...childHome(),
    CUSTODY_BASE_URL: emulator.baseUrl,
    CUSTODY_OPERATOR: DEMO.treasuryBot,
    CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
  };
  const client = modernClient();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle], env, stderr: "pipe" }));
  return client;
}

/** A send from the demo treasury; each test sends its own amount, so none is taken for a repeat of another's. */
const sendArgs = async (amount: string, note: string) => ({
  account: DEMO.solTreasury,
  recipient: (await accountNamed(emulator, DEMO.solCold)).address,
  amount,
  unit: "SOL",
  note,
});

describe.each([
  ["Streamable HTTP", () => overHttp()],
  ["stdio (the bundle)", overStdio],
])("a 2026-07-28 client over %s", (_transport, connect) => {
  it("connects by server/discover, lists the tools, resources and prompts, and calls a read tool", async () => {
    const client = await connect();
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN);
      expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
      expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.name)).toContain("account");
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain("stake_sol");
      const health = await call(client, "health_check");
      expect(health.structured.status, health.text).toBe("OK");
    } finally {
      await client.close();
    }
  });

  it("gets a dry run of a send, and nothing is sent", async () => {
    const client = await connect();
    try {
      const dry = await call(client, "create_transaction", await sendArgs("0.11", "modern dry run"));
      expect(dry.structured.status, dry.text).toBe("dry_run");
      expect(dry.token).toMatch(/^v2\./);
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("2026-07-28 on the HTTP endpoint", () => {
  it("holds no session: a dry run and its confirmation by token from two connections of the same principal send once", async () => {
    // Neither declares form elicitation: the token alone confirms (person-question.test.ts asks the person).
    const [first, second] = [await overHttp(), await overHttp()];
    try {
      const args = await sendArgs("0.12", "modern confirm");
      const dry = await call(first, "create_transaction", args);
      const confirmed = await call(second, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status, confirmed.text).toBe("submitted");
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
      expect(http.sessions).toBe(0);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("answers a request without initialize with a result typed complete and cached privately, and checks Mcp-Method against the body", async () => {
    const headers = { ...authorized, "MCP-Protocol-Version": MODERN };
    const listed = await rawMcpPost(http.port, { ...headers, "Mcp-Method": "tools/list" }, modernRequest(1, "tools/list"));
    expect(listed.status, listed.body).toBe(200);
    expect(listed.headers["mcp-session-id"]).toBeUndefined();
    // A JSON answer is written whole with its length (one write), not as chunks of a stream.
    expect([listed.headers["content-length"], listed.headers["transfer-encoding"]]).toEqual([String(Buffer.byteLength(listed.body)), undefined]);
    const result = (JSON.parse(listed.body) as { result: { resultType: string; cacheScope: string; ttlMs: number; tools: unknown[] } }).result;
    expect([result.resultType, result.cacheScope, result.tools.length]).toEqual(["complete", "private", ALL_TOOLS.length]);
    const mismatched = await rawMcpPost(http.port, { ...headers, "Mcp-Method": "prompts/list" }, modernRequest(2, "tools/list"));
    expect(mismatched.status).toBe(400);
    expect(JSON.parse(mismatched.body)).toMatchObject({ id: 2, error: { code: -32020 } });
    const unsupported = await rawMcpPost(http.port, { ...authorized }, modernRequest(3, "tools/list").replace(MODERN, "2099-01-01"));
    expect(JSON.parse(unsupported.body)).toMatchObject({ id: 3, error: { code: -32022 } });
  });

  it("still serves 2025-11-25 sessions beside it, and checks the bearer token first", async () => {
    const refused = await rawMcpPost(http.port, {}, modernRequest(1, "tools/list"));
    expect(refused.status).toBe(401);
    const legacy = await rawMcpPost(http.port, authorized);
    expect(legacy.status).toBe(200);
    expect(legacy.headers["mcp-session-id"]).toEqual(expect.any(String));
  });

  it("shuts down gracefully: a 2026-07-28 write under way finishes and is answered, a new request is refused", async () => {
    const context = testContext(emulator);
    const stopping = await startHttpServer(context.ctx, HTTP_OPTIONS, () => {});
    const client = await overHttp({}, stopping);
    try {
      const refused = () =>
        rawMcpPost(stopping.port, { ...authorized, "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list" }, modernRequest(9, "tools/list"));
      await expectWriteToOutliveShutdown({
        emulator,
        server: stopping,
        auditPath: context.auditPath,
        client,
        args: await sendArgs("0.13", "modern shutdown"),
        refused,
      });
    } finally {
      await client.close();
    }
  });
});

describe("2026-07-28 over stdio, in raw lines", () => {
  it("refuses every request that names a revision the server does not serve, not only the connection's first, and serves the next", async () => {
    const server = new RawStdioServer(bundle, {
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_OPERATOR: DEMO.treasuryBot,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
    });
    const claiming = (id: number, revision: string) => {
      const request = JSON.parse(modernRequest(id, "tools/list")) as { params: { _meta: Record<string, unknown> } };
      request.params._meta["io.modelcontextprotocol/protocolVersion"] = revision;
      return `${JSON.stringify(request)}\n`;
    };
    try {
      server.child.stdin.write(`${modernRequest(1, "server/discover")}\n`);
      expect((await server.answer(1)).result).toBeDefined();
      // The SDK checks each message's claim until a request other than server/discover pins the connection to the revision.
      server.child.stdin.write(`${modernRequest(2, "tools/list")}\n`);
      expect((await server.answer(2)).result).toBeDefined();
      for (const [id, revision] of [
        [3, "2099-01-01"],
        [4, "2025-11-25"],
      ] as const) {
        server.child.stdin.write(claiming(id, revision));
        const refused = (await server.answer(id)) as { error?: { code: number; data?: unknown } };
        expect(refused.error?.code, revision).toBe(-32022);
        expect(refused.error?.data, revision).toEqual({ supported: [MODERN], requested: revision });
      }
      server.child.stdin.write(`${modernRequest(5, "tools/list")}\n`);
      expect(((await server.answer(5)).result as { tools?: unknown[] }).tools).toHaveLength(ALL_TOOLS.length);
    } finally {
      server.child.stdin.end();
      await server.exited;
    }
  });

  it("leaves a 2025-11-25 connection (opened by initialize) to serve what its requests' _meta names, as the SDK does", async () => {
    const server = new RawStdioServer(bundle, {
      CUSTODY_BASE_URL: emulator.baseUrl,
      CUSTODY_OPERATOR: DEMO.treasuryBot,
      CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
    });
    const line = (message: object) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
    try {
      const clientInfo = { name: "raw", version: "0" };
      server.child.stdin.write(line({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo } }));
      expect((await server.answer(1)).result).toMatchObject({ protocolVersion: "2025-11-25" });
      server.child.stdin.write(line({ method: "notifications/initialized" }));
      server.child.stdin.write(line({ id: 2, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2025-11-25" } } }));
      expect(((await server.answer(2)).result as { tools?: unknown[] }).tools).toHaveLength(ALL_TOOLS.length);
    } finally {
      server.child.stdin.end();
      await server.exited;
    }
  });
});
