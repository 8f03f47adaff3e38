import { isLegacyRequest } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { carriesModernClaim } from "../src/transport/modern-endpoint.js";

// The endpoint claims a body for 2026-07-28 without the SDK's classification only where the SDK
// would never route it to 2025: checked here against the SDK itself, so an SDK that routes
// differently fails this test rather than a client.

const CLAIM = "io.modelcontextprotocol/protocolVersion";
const envelope = { [CLAIM]: "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} };
/** A request to the endpoint, with or without the revision's header (a body alone decides without it). */
const post = (method = "POST", revisionHeader = false) =>
  new Request("http://127.0.0.1/mcp", {
    method,
    headers: { "content-type": "application/json", ...(revisionHeader ? { "mcp-protocol-version": "2026-07-28" } : {}) },
  });

const BODIES: Record<string, unknown> = {
  "a tools/call": { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "health_check", arguments: {}, _meta: envelope } },
  "a notification": { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: envelope } },
  "a claim naming a 2025 revision": { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { [CLAIM]: "2025-11-25" } } },
  "a claim that is not a string": { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { [CLAIM]: 7 } } },
  "a claim naming a later revision": { jsonrpc: "2.0", id: 13, method: "tools/list", params: { _meta: { ...envelope, [CLAIM]: "2027-01-01" } } },
  "a claim that is not a date": { jsonrpc: "2.0", id: 14, method: "tools/list", params: { _meta: { ...envelope, [CLAIM]: "zzz" } } },
  "an id of the wrong type": { jsonrpc: "2.0", id: { no: 1 }, method: "tools/list", params: { _meta: envelope } },
  "an initialize with the claim": { jsonrpc: "2.0", id: 4, method: "initialize", params: { protocolVersion: "2025-11-25", _meta: envelope } },
  "an initialize with a 2025 claim": {
    jsonrpc: "2.0",
    id: 5,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" }, _meta: { [CLAIM]: "2025-11-25" } },
  },
  "a response carrying params": { jsonrpc: "2.0", id: 6, result: {}, method: "x", params: { _meta: envelope } },
  "an error carrying params": { jsonrpc: "2.0", id: 7, error: { code: 1, message: "m" }, method: "x", params: { _meta: envelope } },
  "a batch": [{ jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: envelope } }],
  "no claim": { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} },
  "a _meta that is an array": { jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: [CLAIM] } },
  "params that are an array": { jsonrpc: "2.0", id: 11, method: "tools/list", params: [{ _meta: envelope }] },
  "a method that is not a string": { jsonrpc: "2.0", id: 12, method: 12, params: { _meta: envelope } },
  null: null,
};

describe("a body claimed for 2026-07-28 without the SDK's classification", () => {
  it.each(Object.entries(BODIES))("is never one the SDK routes to 2025: %s", async (_name, body) => {
    for (const revisionHeader of [false, true])
      if (carriesModernClaim(post("POST", revisionHeader), body)) expect(await isLegacyRequest(post("POST", revisionHeader), body)).toBe(false);
  });

  it("is every request or notification whose claim names a 2026-07-28-generation revision, and nothing else (a 2025 claim, none, an initialize)", () => {
    const claimed = Object.entries(BODIES)
      .filter(([, body]) => carriesModernClaim(post(), body))
      .map(([name]) => name);
    expect(claimed).toEqual(["a tools/call", "a notification", "a claim naming a later revision", "an id of the wrong type"]);
    expect(carriesModernClaim(post("GET"), BODIES["a tools/call"])).toBe(false);
  });
});
