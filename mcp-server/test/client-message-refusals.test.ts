import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { bundleAndEmulator } from "./harness/built-bundle.js";
import { DEMO } from "./harness/demo-workspace.js";
import { testContext } from "./harness/mcp-harness.js";
import { MODERN } from "./harness/modern-client.js";
import { INITIALIZE, rawMcpPost } from "./harness/raw-mcp-post.js";
import { RawStdioServer, type RpcMessage } from "./harness/raw-stdio-server.js";
import { tempDir } from "./harness/temp-dirs.js";

// What a client's message is refused for before the SDK reads it, and what a request naming an
// unknown tool is answered, alike over Streamable HTTP (the endpoint on loopback) and stdio (the
// built bundle in raw lines), in a 2025-11-25 session and in 2026-07-28 (no session) each.

const TOKEN = "test-bearer-token-0123456789";
const HTTP_OPTIONS = { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null };
const authorized = { Authorization: `Bearer ${TOKEN}` };
const CLAIM = "io.modelcontextprotocol/protocolVersion";
const ENVELOPE = { [CLAIM]: MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
/** An id JSON.parse reads as 9007199254740992: answered with it, it would name another request. */
const UNREADABLE_ID = "9007199254740993";

const built = bundleAndEmulator();
let http: RunningHttpServer;

beforeAll(async () => {
  http = await startHttpServer(testContext(built.emulator).ctx, HTTP_OPTIONS, () => {});
});
afterAll(async () => {
  await http?.close();
});

/** One way of talking to the server: raw message text in, the one answer to it out. */
interface Channel {
  /** The params a request carries on this channel (a 2026-07-28 request carries the envelope in _meta). */
  params(params?: Record<string, unknown>): Record<string, unknown>;
  send(text: string): Promise<RpcMessage>;
}

/** The JSON-RPC message of an HTTP answer: a JSON body, or the first message event of an event stream. */
function answerOf(body: string): RpcMessage {
  const data = body.split("\n").find((line) => line.startsWith("data: "));
  return JSON.parse(data === undefined ? body : data.slice("data: ".length)) as RpcMessage;
}

async function httpSession(): Promise<Channel> {
  const opened = await rawMcpPost(http.port, authorized, INITIALIZE.replace("2025-06-18", "2025-11-25"));
  const headers = { ...authorized, "Mcp-Session-Id": opened.headers["mcp-session-id"] as string, "MCP-Protocol-Version": "2025-11-25" };
  await rawMcpPost(http.port, headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return { params: (params = {}) => params, send: async (text) => answerOf((await rawMcpPost(http.port, headers, text)).body) };
}

/** The headers 2026-07-28 requires beside a body: its revision, method and (a tool's) name, as the SDK's client sends them. */
function modernHeaders(text: string): Record<string, string> {
  let message: { method?: unknown; params?: { name?: string; _meta?: Record<string, unknown> } } = {};
  try {
    message = (JSON.parse(text) as typeof message | null) ?? {};
  } catch {
    // Not JSON: refused before any header is looked at.
  }
  const name = message.params?.name;
  return {
    "MCP-Protocol-Version": String(message.params?._meta?.[CLAIM] ?? MODERN),
    "Mcp-Method": typeof message.method === "string" ? message.method : "tools/list",
    ...(message.method === "tools/call" && name !== undefined ? { "Mcp-Name": `=?base64?${Buffer.from(name).toString("base64")}?=` } : {}),
  };
}

function httpModern(): Promise<Channel> {
  return Promise.resolve({
    params: (params = {}) => ({ ...params, _meta: ENVELOPE }),
    send: async (text) => answerOf((await rawMcpPost(http.port, { ...authorized, ...modernHeaders(text) }, text)).body),
  });
}

function stdioChannel(server: RawStdioServer, params: Channel["params"]): Channel {
  return {
    params,
    send: async (text) => {
      const before = server.messages.length;
      server.child.stdin.write(`${text}\n`);
      return server.until("an answer", () => server.messages.slice(before).find((message) => "result" in message || "error" in message));
    },
  };
}

function startStdio(): RawStdioServer {
  const server = new RawStdioServer(built.bundle, {
    CUSTODY_BASE_URL: built.emulator.baseUrl,
    CUSTODY_OPERATOR: DEMO.treasuryBot,
    CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
  });
  // Ended with its test, before the test's folders (its home, its audit log) are removed: it writes there until it exits.
  onTestFinished(async () => {
    server.child.stdin.end();
    await server.exited;
  });
  return server;
}

async function stdioSession(): Promise<Channel> {
  const server = startStdio();
  await server.initialize();
  return stdioChannel(server, (params = {}) => params);
}

async function stdioModern(): Promise<Channel> {
  const channel = stdioChannel(startStdio(), (params = {}) => ({ ...params, _meta: ENVELOPE }));
  expect((await channel.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "server/discover", params: channel.params() }))).result).toBeDefined();
  return channel;
}

const request = (channel: Channel, id: number | string, method: string, params?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params: channel.params(params) });

/** The channel still answers: nothing it refused stopped it. */
async function expectStillServing(channel: Channel, id: number): Promise<void> {
  const answer = await channel.send(request(channel, id, "tools/list"));
  expect(answer.id).toBe(id);
  expect((answer.result as { tools?: unknown[] } | undefined)?.tools?.length).toBeGreaterThan(0);
}

describe.each([
  ["Streamable HTTP, a 2025-11-25 session", httpSession],
  ["Streamable HTTP, 2026-07-28", httpModern],
  ["stdio, a 2025-11-25 session", stdioSession],
  ["stdio, 2026-07-28", stdioModern],
])("%s", (_name, open) => {
  it("answers a message that is not JSON with the parse error (-32700, id null), and serves the next", async () => {
    const channel = await open();
    const answer = await channel.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"');
    expect(answer.error?.code).toBe(-32700);
    expect(answer.error?.message).toMatch(/^Parse error: the message is not valid JSON \(/);
    expect(answer.id).toBeNull();
    await expectStillServing(channel, 2);
  });

  it("refuses a message naming a key twice in one object (-32600, naming the key, its id echoed unless it is the id), and serves the next", async () => {
    const channel = await open();
    const meta = JSON.stringify(channel.params());
    // A reader keeping the first name would see a read where JSON.parse (the last) sees a write.
    const names = request(channel, 3, "tools/call", { name: "create_transaction", arguments: {} }).replace('"name"', '"name":"list_accounts","name"');
    const refused = await channel.send(names);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toContain('the message names the key "name" twice in one object');
    expect(refused.id).toBe(3);
    const ids = await channel.send(`{"jsonrpc":"2.0","id":4,"id":5,"method":"tools/list","params":${meta}}`);
    expect([ids.error?.code, ids.id]).toEqual([-32600, null]);
    await expectStillServing(channel, 6);
  });

  it("refuses a request whose id is an integer beyond 2^53-1 (-32600, naming the rule, id null) rather than answer another id", async () => {
    const channel = await open();
    const answer = await channel.send(request(channel, 7, "tools/list").replace('"id":7', `"id":${UNREADABLE_ID}`));
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toContain("must be a whole number from -9007199254740991 to 9007199254740991 (2^53-1)");
    expect(answer.id).toBeNull();
    await expectStillServing(channel, 8);
  });

  it("refuses JSON that is no JSON-RPC message (-32600, naming the field and the rule; a request's id echoed when it can be read), and serves the next", async () => {
    const channel = await open();
    const meta = JSON.stringify(channel.params());
    const refused: [string, string, string | number | null][] = [
      ["42", "a message is a JSON object (a request, a notification or a response), or a batch (an array) of them; not a number", null],
      ['"x"', "a message is a JSON object (a request, a notification or a response), or a batch (an array) of them; not a string", null],
      ["null", "a message is a JSON object (a request, a notification or a response), or a batch (an array) of them; not null", null],
      ["[]", "a batch holds at least one message; this array is empty", null],
      ["[42]", '"[0]" must be a JSON object (a request, a notification or a response); not a number', null],
      ["{}", '"jsonrpc" must be "2.0"', null],
      ['{"jsonrpc":"2.0"}', 'the message names no "method" (a request or a notification) and no "result" or "error" (a response)', null],
      [`{"id":21,"method":"tools/list","params":${meta}}`, '"jsonrpc" must be "2.0"', 21],
      [
        `{"jsonrpc":"2.0","id":{"a":1},"method":"ping","params":${meta}}`,
        '"id" must be a string or a whole number from -(2^53-1) to 2^53-1 (a notification has no id)',
        null,
      ],
      [`{"jsonrpc":"2.0","id":22,"method":5,"params":${meta}}`, '"method" must be a string', null],
      [
        `{"jsonrpc":"2.0","id":"r23","method":"tools/list","params":${meta},"extra":1}`,
        '"extra" is not allowed: a request has only jsonrpc, id, method, params',
        "r23",
      ],
      [
        '{"jsonrpc":"2.0","id":24,"method":"tools/list","params":{"_meta":{"progressToken":1.5}}}',
        '"params._meta.progressToken" must be a string or a whole number from -(2^53-1) to 2^53-1',
        24,
      ],
    ];
    for (const [line, rule, id] of refused) {
      const answer = await channel.send(line);
      expect({ line, code: answer.error?.code, message: answer.error?.message, id: answer.id }).toEqual({
        line,
        code: -32600,
        message: `Invalid request: not a JSON-RPC 2.0 message: ${rule}`,
        id,
      });
    }
    // A key the message should not have is its own: quoted sanitised, on one line and cut.
    const hostileKey = JSON.stringify(`x\u202Ey\n${"k".repeat(500)}`);
    const hostile = await channel.send(request(channel, 26, "tools/list").replace(/}$/, `,${hostileKey}:1}`));
    expect([hostile.error?.code, hostile.id]).toEqual([-32600, 26]);
    expect(hostile.error?.message).toMatch(
      /^Invalid request: not a JSON-RPC 2\.0 message: "x\\u\{202E\}y\\u\{000A\}k+…\[field cut: 518 characters\]" is not allowed: a request has only jsonrpc, id, method, params$/,
    );
    await expectStillServing(channel, 27);
  });

  it("answers a call of an unknown tool with -32602 quoting its name sanitised, on one line and cut", async () => {
    const channel = await open();
    const name = `no_such\u202Etool\n${"x".repeat(5000)}`;
    const answer = await channel.send(request(channel, 9, "tools/call", { name, arguments: {} }));
    expect(answer.error?.code).toBe(-32602);
    const message = answer.error?.message ?? "";
    expect(message).toMatch(/^Tool no_such\\u\{202E\}tool\\u\{000A\}x+…\[tool name cut: 5,027 characters\] not found$/);
    expect(message.length).toBeLessThan(200);
    await expectStillServing(channel, 10);
  });
});

describe.each([
  ["a 2025-11-25 session", stdioSession],
  ["2026-07-28", stdioModern],
])("stdio, %s", (_name, open) => {
  it("answers no well-formed notification, nor a well-formed response to a request it did not make; the next request is answered", async () => {
    const channel = await open();
    const quiet = [
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: channel.params({ requestId: 999 }) }),
      '{"jsonrpc":"2.0","id":"never-asked-1","result":{}}',
      '{"jsonrpc":"2.0","id":"never-asked-2","error":{"code":-1,"message":"no"}}',
    ];
    // Sent with the request, ahead of it: an answer to any of them would come first.
    const answer = await channel.send([...quiet, request(channel, 31, "tools/list")].join("\n"));
    expect([answer.id, answer.error]).toEqual([31, undefined]);
  });

  it("refuses a batch (-32600, id null), which the SDK's stdio transport would drop without a word, and serves the next", async () => {
    const channel = await open();
    const answer = await channel.send(`[${request(channel, 32, "ping")}]`);
    expect({ code: answer.error?.code, message: answer.error?.message, id: answer.id }).toEqual({
      code: -32600,
      message: "Invalid request: a batch (an array of messages) is not served over stdio; send each message on a line of its own",
      id: null,
    });
    await expectStillServing(channel, 33);
  });
});

describe("a batch, in a 2025-11-25 session over Streamable HTTP", () => {
  it("is read as messages and served, as the SDK serves it", async () => {
    const channel = await httpSession();
    const answer = await channel.send(`[${request(channel, 41, "ping")}]`);
    expect([answer.id, answer.result]).toEqual([41, {}]);
  });
});

describe("a request whose _meta claims 2025-11-25 (with the rest of the envelope)", () => {
  // A 2025-11-25 claim is no 2026-07-28 request: a session serves it; without one, that revision refuses it.
  it.each([
    ["is served in a 2025-11-25 session over Streamable HTTP", httpSession, undefined],
    ["is served in a 2025-11-25 session over stdio", stdioSession, undefined],
    ["is refused -32022 (no session) over Streamable HTTP", httpModern, -32022],
    ["is refused -32022 (no session) over stdio, in 2026-07-28", stdioModern, -32022],
  ])("%s", async (_name, open, refusedWith) => {
    const channel = await open();
    const claiming2025 = { jsonrpc: "2.0", id: 13, method: "tools/list", params: { _meta: { ...ENVELOPE, [CLAIM]: "2025-11-25" } } };
    const answer = await channel.send(JSON.stringify(claiming2025));
    expect([answer.id, answer.error?.code]).toEqual([13, refusedWith]);
    if (refusedWith === undefined) expect((answer.result as { tools?: unknown[] } | undefined)?.tools?.length).toBeGreaterThan(0);
    await expectStillServing(channel, 14);
  });
});
