import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer } from "../server/create-server.js";
import type { ServerContext } from "../server/server-context.js";

/** Serves one session over stdin/stdout; resolves when the client closes the connection. */
export async function serveStdio(ctx: ServerContext): Promise<void> {
  const server = createMcpServer(ctx);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
