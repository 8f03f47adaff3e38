import { request as httpRequest } from "node:http";
import type { RunningEmulator } from "@custody/emulator";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_SECONDS } from "../src/config/options.js";
import type { HttpOptions } from "../src/config/server-config.js";
import { MAX_SUBSCRIPTIONS_PER_STREAM } from "../src/subscriptions/subscription-limits.js";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { resetWorkspace } from "./harness/control-plane.js";
import { accountNamed, DEMO, transactionsWithLabel } from "./harness/demo-workspace.js";
import { INITIALIZE, rawMcpPost } from "./harness/raw-mcp-post.js";
import { call, startTestEmulator, testClient, testContext } from "./harness/mcp-harness.js";
import { MODERN, modernRequest } from "./harness/modern-client.js";
import { expectWriteToOutliveShutdown } from "./harness/shutdown-under-way.js";

const TOKEN = "test-bearer-token-0123456789";
const OPTIONS: HttpOptions = {
  port: 0,
  host: "127.0.0.1",
  token: TOKEN,
  sessionIdleSeconds: DEFAULT_SESSION_IDLE_SECONDS,
  maxSessions: DEFAULT_MAX_SESSIONS,
  replicaId: null,
  publicOrigin: null,
  oauth: null,
};
let emulator: RunningEmulator;
let server: RunningHttpServer;

beforeAll(async () => {
  emulator = await startTestEmulator();
  server = await startHttpServer(testContext(emulator).ctx, OPTIONS, () => {});
});
afterAll(async () => {
  await server.close();
  await emulator.close();
});

/** A raw POST to this file's server unless another port is given. */
const rawPost = (headers: Record<string, string>, body = INITIALIZE, port = server.port) => rawMcpPost(port, headers, body);

const authorized = { Authorization: `Bearer ${TOKEN}` };

describe("Streamable HTTP", () => {
  it("listens on loopback at /mcp", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
  });

  it("refuses a Host that is not this loopback server (DNS rebinding), before anything else", async () => {
    const response = await rawPost({ ...authorized, Host: `evil.example:${server.port}` });
    expect(response.status).toBe(403);
    expect(response.body).toContain("Host header");
    expect((await rawPost({ Host: `evil.example:${server.port}` })).status).toBe(403);
  });

  it("refuses a foreign Origin", async () => {
    const response = await rawPost({ ...authorized, Host: `localhost:${server.port}`, Origin: "http://evil.example" });
    expect(response.status).toBe(403);
    expect(response.body).toContain("Origin");
  });

  it("requires the bearer token", async () => {
    expect((await rawPost({})).status).toBe(401);
    const wrong = await rawPost({ Authorization: "Bearer not-the-token" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it("accepts a loopback Origin with the token, and answers an unknown session with 404", async () => {
    const ok = await rawPost({ ...authorized, Origin: `http://localhost:${server.port}` });
    expect(ok.status).toBe(200);
    expect(ok.headers["mcp-session-id"]).toBeTruthy();
    const unknown = await rawPost({ ...authorized, "mcp-session-id": "no-such-session" }, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }));
    expect(unknown.status).toBe(404);
  });

  it("serves a stateful session in which a write asks the person and submits once", async () => {
    const shown: string[] = [];
    const client = testClient((message) => {
      shown.push(message);
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: authorized } }));
    try {
      expect((await client.listTools()).tools.length).toBe(ALL_TOOLS.length);
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      const args = { account: DEMO.solTreasury, recipient, amount: "0.25", unit: "SOL" };
      const dry = await call(client, "create_transaction", args);
      const confirmed = await call(client, "create_transaction", { ...args, confirmation_token: dry.token });
      expect(confirmed.structured.status).toBe("submitted");
      expect(shown).toHaveLength(1);
      expect(await transactionsWithLabel(emulator, dry.structured.reference as string)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describe("Streamable HTTP request sizes", () => {
  const hugeCall = (digits: number) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "create_transaction", arguments: { account: DEMO.solTreasury, recipient: "x", amount: "9".repeat(digits), unit: "SOL" } },
    });

  /** A POST sent in chunks (Transfer-Encoding: chunked), so that the server learns its size only by reading it. */
  function chunkedPost(body: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/mcp",
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...authorized },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.slice(at, at + 64 * 1024));
      req.end();
    });
  }

  it("refuses a body over 1 MiB with 413 naming the limit, by its declared length or as it is read, and goes on serving", async () => {
    const declared = await rawPost(authorized, hugeCall(4_000_000));
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.message).toBe(
      `Payload too large: a request body may be at most 1048576 bytes, this one declares ${Buffer.byteLength(hugeCall(4_000_000))}`,
    );
    const streamed = await chunkedPost(hugeCall(4_000_000));
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.message).toBe("Payload too large: a request body may be at most 1048576 bytes, this one has more than 1048576");
    const client = testClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: authorized } }));
    try {
      expect((await call(client, "list_accounts", { page_size: 5 })).isError).toBe(false);
    } finally {
      await client.close();
    }
  });

  it("refuses an amount of 900,000 digits within the limit by its length, naming the field, before any conversion", async () => {
    const client = testClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: authorized } }));
    try {
      const result = await call(client, "create_transaction", { account: DEMO.solTreasury, recipient: "x", amount: "9".repeat(900_000), unit: "SOL" });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("amount: at most 80 characters, got 900000");
    } finally {
      await client.close();
    }
  });
});

describe("Streamable HTTP graceful stop", () => {
  it("refuses new sessions, lets a write under way finish and answers it, then closes", async () => {
    await resetWorkspace(emulator);
    const context = testContext(emulator);
    const stopping = await startHttpServer(context.ctx, OPTIONS, () => {});
    const client = testClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(stopping.url), { requestInit: { headers: authorized } }));
    try {
      const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
      await expectWriteToOutliveShutdown({
        emulator,
        server: stopping,
        auditPath: context.auditPath,
        client,
        args: { account: DEMO.solTreasury, recipient, amount: "0.2", unit: "SOL" },
        refused: () => rawPost(authorized, INITIALIZE, stopping.port),
      });
    } finally {
      await client.close();
    }
  });
});

describe("Streamable HTTP behind a load balancer", () => {
  it("issues session ids naming its replica, and accepts the public origin in Host and Origin, nothing wider", async () => {
    const replica = await startHttpServer(testContext(emulator).ctx, { ...OPTIONS, replicaId: "r7", publicOrigin: "https://custody.example:8443" }, () => {});
    try {
      const post = (headers: Record<string, string>) => rawMcpPost(replica.port, { ...authorized, ...headers });
      const direct = await post({});
      expect(direct.status).toBe(200);
      expect(direct.headers["mcp-session-id"]).toMatch(/^r7\.[0-9a-f-]{36}$/);
      const through = await post({ Host: "custody.example:8443", Origin: "https://custody.example:8443" });
      expect(through.status).toBe(200);
      expect(through.headers["mcp-session-id"]).toMatch(/^r7\./);
      const wrong: Record<string, string>[] = [
        { Host: "custody.example:9999" },
        { Host: "custody.example" },
        { Host: "custody.example:8443", Origin: "http://custody.example:8443" },
        { Host: "custody.example:8443", Origin: "https://evil.example" },
      ];
      for (const headers of wrong) {
        const refused = await post(headers);
        expect(refused.status, JSON.stringify(headers)).toBe(403);
        expect(refused.body).toContain("nor the public origin https://custody.example:8443 (CUSTODY_MCP_PUBLIC_ORIGIN)");
      }
    } finally {
      await replica.close();
    }
  });
});

// The server's own error answers on the endpoint (those the SDK does not write): the HTTP status,
// the JSON-RPC code and the request's id, as hostile or mistaken clients meet them.

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  json: { id?: unknown; error?: { code: number; message: string } };
}

/** Any method on /mcp with the token, the body as given. */
function send(method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: server.port, path: "/mcp", method, headers: { ...authorized, ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) as Answer["json"] }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function post(headers: Record<string, string>, body: string): Promise<Answer> {
  const answer = await rawPost({ ...authorized, ...headers }, body);
  return { status: answer.status, headers: answer.headers, json: JSON.parse(answer.body) as Answer["json"] };
}

const modernHeaders = (method: string) => ({ "MCP-Protocol-Version": MODERN, "Mcp-Method": method });

/** The endpoint still answers a 2026-07-28 request after whatever came before. */
async function expectStillServing(): Promise<void> {
  const discover = await post(modernHeaders("server/discover"), modernRequest(99, "server/discover"));
  expect(discover.status).toBe(200);
}

describe("the HTTP endpoint's own error answers", () => {
  it("answers a body that is not JSON with JSON-RPC's parse error (-32700), then serves the next request", async () => {
    const answer = await post(modernHeaders("tools/list"), '{"jsonrpc":"2.0","id":1,');
    expect(answer.status).toBe(400);
    expect(answer.json.error?.code).toBe(-32700);
    expect(answer.json.error?.message).toMatch(/^Parse error: the message is not valid JSON/);
    expect(answer.json.id).toBeNull();
    await expectStillServing();
  });

  it("refuses a body that is not declared JSON with 415 before reading it, whatever it holds", async () => {
    const answer = await post({ ...modernHeaders("tools/list"), "Content-Type": "text/plain" }, "{not json either");
    expect(answer.status).toBe(415);
    expect(answer.json.error?.message).toBe("Unsupported Media Type: Content-Type must be application/json");
    await expectStillServing();
  });

  it("answers a method the endpoint does not take with 405 naming those it does", async () => {
    for (const [method, body] of [
      ["PUT", modernRequest(1, "tools/list")],
      ["PATCH", modernRequest(2, "tools/list")],
      ["OPTIONS", undefined],
    ] as const) {
      const answer = await send(method, { "Content-Type": "application/json" }, body);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe("GET, POST, DELETE");
    }
  });

  it("answers a 2026-07-28 GET or DELETE (no sessions in that revision) with 405, a 2025 one without a session with 400", async () => {
    for (const method of ["GET", "DELETE"]) {
      const modern = await send(method, { Accept: "text/event-stream", "MCP-Protocol-Version": MODERN });
      expect(modern.status, method).toBe(405);
      expect(modern.headers.allow).toBe("POST");
      for (const version of ["2025-11-25", "zzz"])
        expect((await send(method, { Accept: "text/event-stream", "MCP-Protocol-Version": version })).status, method).toBe(400);
    }
  });

  it("echoes the request's id when a 2025 request has no session, or an unknown one", async () => {
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 41, method: "ping" });
    const noSession = await post({}, ping);
    expect(noSession.status).toBe(400);
    expect(noSession.json.id).toBe(41);
    const unknown = await post({ "Mcp-Session-Id": "no-such-session" }, JSON.stringify({ jsonrpc: "2.0", id: "p-42", method: "ping" }));
    expect(unknown.status).toBe(404);
    expect(unknown.json.id).toBe("p-42");
  });

  it("refuses a body naming a key twice in one object (-32600, naming it), which readers keeping the first or the last would read apart", async () => {
    const envelope = JSON.parse(modernRequest(0, "tools/call")) as { params: { _meta: unknown } };
    const meta = JSON.stringify(envelope.params._meta);
    const bodies = [
      // The tool's name: a gateway keeping the first would see a read where this server would run a write.
      [
        44,
        `{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"list_accounts","name":"create_transaction","arguments":{},"_meta":${meta}}}`,
        "name",
      ],
      // An amount deep in the arguments, the second spelt with an escape.
      [
        45,
        `{"jsonrpc":"2.0","id":45,"method":"tools/call","params":{"name":"create_transaction",` +
          `"arguments":{"amount":"1","\\u0061mount":"1000"},"_meta":${meta}}}`,
        "amount",
      ],
      // The id itself: no id is echoed, there would be two.
      [null, `{"jsonrpc":"2.0","id":46,"id":47,"method":"tools/call","params":{"name":"create_transaction","arguments":{},"_meta":${meta}}}`, "id"],
    ] as const;
    for (const [id, body, key] of bodies) {
      const answer = await post(modernHeaders("tools/call"), body);
      expect(answer.status, key).toBe(400);
      expect(answer.json.error?.code, key).toBe(-32600);
      expect(answer.json.error?.message, key).toContain(`the message names the key "${key}" twice in one object`);
      expect(answer.json.id, key).toBe(id);
    }
    await expectStillServing();
  });

  it("serves a 2026-07-28 request as that revision's whatever Mcp-Session-Id it carries (a stale one, or a live 2025 session's)", async () => {
    const opened = await rawPost(authorized);
    const live = opened.headers["mcp-session-id"] as string;
    for (const sessionId of ["no-such-session", live]) {
      const answer = await post({ ...modernHeaders("tools/list"), "Mcp-Session-Id": sessionId }, modernRequest(48, "tools/list"));
      expect(answer.status, sessionId).toBe(200);
      expect((answer.json as { result?: { tools?: unknown[] } }).result?.tools, sessionId).toHaveLength(ALL_TOOLS.length);
    }
  });

  it("refuses a listen stream over its limits with invalid params (-32602) and the request's id", async () => {
    const uris = Array.from({ length: MAX_SUBSCRIPTIONS_PER_STREAM + 1 }, (_, index) => `custody://accounts/${index + 1}`);
    const answer = await post(
      modernHeaders("subscriptions/listen"),
      modernRequest(43, "subscriptions/listen", { notifications: { resourceSubscriptions: uris } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.json.id).toBe(43);
    expect(answer.json.error?.code).toBe(-32602);
    expect(answer.json.error?.message).toMatch(/^params\.notifications\.resourceSubscriptions: Too many subscriptions/);
    await expectStillServing();
  });
});
