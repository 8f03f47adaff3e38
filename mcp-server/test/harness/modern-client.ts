import { Client, type ClientCapabilities } from "@modelcontextprotocol/client";

export const MODERN = "2026-07-28";

/** The SDK's v2 client pinned to 2026-07-28: server/discover, no initialize, no fallback to 2025. */
export function modernClient(capabilities: ClientCapabilities = {}): Client {
  return new Client({ name: "modern-test", version: "0" }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
}

/** A raw 2026-07-28 request body: the revision, the client and its capabilities in _meta. */
export function modernRequest(id: number, method: string, params: Record<string, unknown> = {}): string {
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope } });
}
