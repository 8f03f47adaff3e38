import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerPrompts } from "../prompts/register-prompts.js";
import { registerResources } from "../resources/register-resources.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import { toolsFor } from "../tools/inventory.js";
import { serverInstructions } from "./instructions.js";
import { withoutDialectKey } from "./schema-dialect.js";
import type { ServerContext } from "./server-context.js";
import { SERVER_NAME, SERVER_VERSION } from "./server-identity.js";

export interface McpServerOptions {
  /** Tracks the tool calls under way, so a shutdown can let them finish. */
  work?: WorkInFlight;
}

/**
 * One MCP server (one session) over the process's shared context: the tools the policy allows,
 * the resources and the prompts. Sessions share tokens, audit log and client.
 */
export function createMcpServer(ctx: ServerContext, options: McpServerOptions = {}): McpServer {
  const { work } = options;
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Custody workspace" },
    { capabilities: { logging: {} }, instructions: serverInstructions(ctx, ctx.client.baseUrl) },
  );
  for (const tool of toolsFor(ctx.policy)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: withoutDialectKey(tool.input),
        outputSchema: withoutDialectKey(tool.output),
        annotations: { ...tool.annotations },
      },
      (args, extra) => {
        const run = () => tool.handle(args, { ctx, session: server.server, signal: extra.signal });
        return work ? work.run(run) : run();
      },
    );
  }
  registerResources(server, ctx);
  registerPrompts(server);
  return server;
}
