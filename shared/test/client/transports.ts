import type { CustodyClientOptions } from "../../src/client/client-options.js";

/** The client's two ways of sending a request: its own node:http connections, and a fetch a caller gives it. */
export const TRANSPORTS: readonly { name: string; options: Partial<CustodyClientOptions>; droppedCode: string }[] = [
  { name: "node:http", options: {}, droppedCode: "ECONNRESET" },
  { name: "an injected fetch", options: { fetch: globalThis.fetch }, droppedCode: "UND_ERR_SOCKET" },
];
