import type { RunningEmulator } from "@custody/emulator";
import { StreamableHTTPClientTransport, type Client, type ListResourcesResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNTS_PER_PAGE as PER_PAGE } from "../src/resources/account-resource.js";
import { CONFIRM_VIEW_URI } from "../src/server/confirm-view.js";
import { ALL_TOOLS } from "../src/tools/inventory.js";
import { startHttpServer, type RunningHttpServer } from "../src/transport/http-server.js";
import { buildBundle, bundleEnv } from "./harness/built-bundle.js";
import { control, resetWorkspace } from "./harness/control-plane.js";
import { directClient } from "./harness/demo-workspace.js";
import { startHoldingProxy, type HoldingProxy } from "./harness/holding-proxy.js";
import { connectSession, startTestEmulator, testContext } from "./harness/mcp-harness.js";
import { MODERN, modernClient, modernRequest } from "./harness/modern-client.js";
import { rawMcpPost } from "./harness/raw-mcp-post.js";

// resources/list pages through every account of a workspace larger than one page, one page of the
// service's listing per answer, in both generations; a cursor the server did not give is refused.

const TOKEN = "test-bearer-token-resources-paging";
const HTTP_OPTIONS = { port: 0, host: "127.0.0.1", token: TOKEN, sessionIdleSeconds: 1800, maxSessions: 10, replicaId: null, publicOrigin: null, oauth: null };
const authorized = { Authorization: `Bearer ${TOKEN}` };
let emulator: RunningEmulator;
let proxy: HoldingProxy;
let http: RunningHttpServer;
let bundle: string;
let accounts: number;

beforeAll(async () => {
  bundle = buildBundle();
  emulator = await startTestEmulator();
  await resetWorkspace(emulator);
  await control(emulator, "POST", "/seed/scale", { accounts: 2 * PER_PAGE + 30, transactions: 0, prefix: "paged-" });
  accounts = (await directClient(emulator).listAccounts({ page: 1, page_size: 1 })).page_info.count;
  // The server reads the service through a proxy that records what it was asked.
  proxy = await startHoldingProxy(emulator);
  http = await startHttpServer(testContext(emulator, { baseUrl: proxy.baseUrl }).ctx, HTTP_OPTIONS, () => {});
}, 120_000);
afterAll(async () => {
  await http?.close();
  await proxy?.close();
  await emulator?.close();
});

async function overHttp(): Promise<{ client: Client; close(): Promise<void> }> {
  const client = modernClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: authorized } }));
  return { client, close: () => client.close() };
}

async function overStdio(): Promise<{ client: Client; close(): Promise<void> }> {
  const client = modernClient();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle], env: bundleEnv(proxy.baseUrl), stderr: "pipe" }));
  return { client, close: () => client.close() };
}

const accountUris = (resources: ListResourcesResult["resources"]) =>
  resources.map((resource) => resource.uri).filter((uri) => uri.startsWith("custody://accounts/"));
/** The pages of GET /accounts the service was asked for at resources/list's page size, from `from` on in what the proxy recorded. */
const accountPagesAsked = (from: number) =>
  proxy
    .asked()
    .slice(from)
    .flatMap((path) => new RegExp(`^/accounts\\?page=(\\d+)&page_size=${PER_PAGE}$`).exec(path)?.[1] ?? [])
    .map(Number);

describe.each([
  ["2025-11-25 (a session)", () => connectSession(testContext(emulator, { baseUrl: proxy.baseUrl }).ctx)],
  ["2026-07-28 over Streamable HTTP", overHttp],
  ["2026-07-28 over stdio (the bundle)", overStdio],
])("resources/list, %s", (_generation, connect) => {
  it("pages through every account, one service page per answer, the view on the first page, nextCursor until the last", async () => {
    const session = await connect();
    try {
      const pages: ListResourcesResult[] = [];
      let cursor: string | undefined;
      do {
        const before = proxy.asked().length;
        // The per-page request: listResources() without a cursor would walk the pages itself.
        const page = await session.client.request({ method: "resources/list", params: cursor === undefined ? {} : { cursor } });
        expect(accountPagesAsked(before)).toEqual([pages.length + 1]);
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor !== undefined && pages.length <= accounts / PER_PAGE);
      expect(pages.map((page) => accountUris(page.resources).length)).toEqual([PER_PAGE, PER_PAGE, accounts - 2 * PER_PAGE]);
      expect(pages.map((page) => page.nextCursor === undefined)).toEqual([false, false, true]);
      expect(pages.map((page) => page.resources.some((resource) => resource.uri === CONFIRM_VIEW_URI))).toEqual([true, false, false]);
      expect(new Set(pages.flatMap((page) => accountUris(page.resources))).size).toBe(accounts);
      // The client's own walk, with no cursor, gets them all.
      expect(accountUris((await session.client.listResources()).resources)).toHaveLength(accounts);
    } finally {
      await session.close();
    }
  });

  it("refuses a cursor it did not give with -32602 naming cursor and the rule (garbage, forged, oversized); the lists never paged ignore one", async () => {
    const session = await connect();
    try {
      const encoded = (body: unknown) => Buffer.from(JSON.stringify(body)).toString("base64url");
      const given = (await session.client.request({ method: "resources/list", params: {} })).nextCursor as string;
      const unreadable = /Invalid cursor: cursor must be a nextCursor of this server's resources\/list, passed back unchanged/;
      const cases: [string, RegExp][] = [
        ["not a cursor!", unreadable],
        [`${given}A`, unreadable],
        [encoded({ v: 1, page: 1 }), unreadable],
        [encoded({ v: 1, page: "2" }), unreadable],
        [encoded({ v: 2, page: 2 }), unreadable],
        [encoded({ v: 1, page: 2, operator: "root" }), unreadable],
        [encoded({ v: 1, page: 1e12 }), unreadable],
        ["A".repeat(100_000), /Invalid cursor: cursor must be at most 64 characters, got 100000/],
      ];
      for (const [cursor, why] of cases) {
        const refused = await session.client.listResources({ cursor }).then(
          () => null,
          (error: unknown) => error as { code?: number; message?: string },
        );
        expect(refused?.code, cursor.slice(0, 40)).toBe(-32602);
        expect(refused?.message, cursor.slice(0, 40)).toMatch(why);
      }
      // An empty cursor is none: the first page.
      expect((await session.client.listResources({ cursor: "" })).nextCursor).toBe(given);
      // Tools, prompts and templates are one page each, answered whole whatever the cursor, as the SDK answers them.
      expect((await session.client.listTools({ cursor: "not a cursor!" })).tools).toHaveLength(ALL_TOOLS.length);
      expect((await session.client.listPrompts({ cursor: "not a cursor!" })).prompts).toHaveLength(3);
      expect((await session.client.listResourceTemplates({ cursor: "not a cursor!" })).resourceTemplates).toHaveLength(5);
    } finally {
      await session.close();
    }
  });
});

it("a 2026-07-28 page after the first is cached as every list answer is (private, ttlMs 0)", async () => {
  const headers = { ...authorized, "MCP-Protocol-Version": MODERN, "Mcp-Method": "resources/list" };
  const first = await rawMcpPost(http.port, headers, modernRequest(1, "resources/list"));
  const cursor = (JSON.parse(first.body) as { result: { nextCursor: string } }).result.nextCursor;
  const second = await rawMcpPost(http.port, headers, modernRequest(2, "resources/list", { cursor }));
  const result = (JSON.parse(second.body) as { result: { resultType: string; cacheScope: string; ttlMs: number; nextCursor?: string } }).result;
  expect([result.resultType, result.cacheScope, result.ttlMs, typeof result.nextCursor]).toEqual(["complete", "private", 0, "string"]);
});

describe("resources/list at the issue's scale (10,000 accounts)", () => {
  beforeAll(async () => {
    await control(emulator, "POST", "/seed/scale", { accounts: 10_000 - accounts, transactions: 0, prefix: "scaled-" });
    accounts = (await directClient(emulator).listAccounts({ page: 1, page_size: 1 })).page_info.count;
  }, 180_000);

  it("the SDK's v2 client, asked for the whole list, walks every page within its default page cap (listMaxPages 64)", async () => {
    expect(accounts).toBeGreaterThanOrEqual(10_000);
    const session = await overHttp();
    try {
      const listed = accountUris((await session.client.listResources()).resources);
      expect(listed).toHaveLength(accounts);
      expect(new Set(listed).size).toBe(accounts);
    } finally {
      await session.close();
    }
  }, 120_000);
});
