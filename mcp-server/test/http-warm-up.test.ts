import { randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildBundle } from "./harness/built-bundle.js";
import { startHttpBundle, type HttpBundleServer } from "./harness/http-bundle-server.js";
import { DEMO } from "./harness/demo-workspace.js";
import { MODERN } from "./harness/modern-client.js";

// A long-running server (Streamable HTTP) builds what its first calls need right after it listens,
// the directory of account names included, so that a 2026-07-28 request (a server built for it)
// finds the process's directory instead of listing every account itself.

const token = randomBytes(24).toString("base64url");
let server: HttpBundleServer;

beforeAll(async () => {
  server = await startHttpBundle(buildBundle(), [], { CUSTODY_MCP_TOKEN: token });
}, 120_000);

afterAll(async () => {
  await server.stop();
});

describe("the HTTP server's warm-up", () => {
  it("lists the account names once after listening, and a 2026-07-28 request then resolves a name", async () => {
    await vi.waitFor(() => expect(server.stderr()).toMatch(/warmed up in \d+ ms: the tools, the context and the names of \d+ accounts/), {
      timeout: 15_000,
      interval: 50,
    });
    const listed = Number(/the names of (\d+) accounts/.exec(server.stderr())?.[1]);
    expect(listed).toBeGreaterThan(1);
    const client = new Client({ name: "warm-up-test", version: "0" }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const result = await client.callTool({ name: "get_account", arguments: { account: DEMO.solTreasury } });
      expect(result.isError).not.toBe(true);
      expect((result.structuredContent as { account?: { name?: string } }).account?.name).toBe(DEMO.solTreasury);
    } finally {
      await client.close();
    }
  });
});
