import { randomUUID } from "node:crypto";
import { fieldIssues, ROOT_PATH, sanitizeUntrustedText, toolPermission, type Person, type Policy } from "@custody/shared";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { DeferredContext } from "../server/server-context.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import { loadTool, toolListings } from "./tool-catalog.js";
import type { ToolListing } from "./tool-listing.js";

/** The problems of a refused input, each naming its field (an unknown key's message names the key). */
function describeProblems(error: z.ZodError): string {
  return fieldIssues(error)
    .map((issue) => (issue.path === ROOT_PATH ? issue.message : `${issue.path}: ${issue.message}`))
    .join("; ");
}

/**
 * tools/call with its arguments as the client sent them: the protocol's own schema copies them
 * through a record, which drops a `__proto__` key without a word, so the tool's strict input
 * check (which refuses it by name) never saw it.
 */
const CallToolAsSent = CallToolRequestSchema.extend({ params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }) });

function allowed(policy: Policy, { toolset, tool }: ToolListing, person: Person | null): boolean {
  return toolPermission(policy, { name: tool.name, toolset, readOnly: tool.annotations?.readOnlyHint === true }, person).allowed;
}

/**
 * tools/list and tools/call on the session's low-level server, as McpServer.registerTool would
 * answer them (same capability, same errors), but without building any tool at start: tools/list
 * is answered from the listings generated at build time, and a tool's zod schemas and handler are
 * loaded on the first call. The tools the local policy refuses (the session's person through their
 * role) are neither listed nor callable.
 */
export function registerTools(server: McpServer, ctx: DeferredContext, { work, person }: { work: WorkInFlight | undefined; person: Person | null }): void {
  const session = server.server;
  const sessionId = randomUUID();
  let visible: Promise<Map<string, Tool>> | undefined;
  const visibleTools = () => {
    visible ??= toolListings().then((listings) => new Map(listings.filter((listing) => allowed(ctx.policy, listing, person)).map(({ tool }) => [tool.name, tool])));
    return visible;
  };
  session.registerCapabilities({ tools: { listChanged: true } });
  session.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...(await visibleTools()).values()] }));
  session.setRequestHandler(CallToolAsSent, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    try {
      const tool = (await visibleTools()).has(name) ? await loadTool(name) : undefined;
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
      const input = await tool.input.safeParseAsync(request.params.arguments ?? {});
      if (!input.success) throw new McpError(ErrorCode.InvalidParams, `Input validation error: Invalid arguments for tool ${name}: ${describeProblems(input.error)}`);
      const progressToken = extra._meta?.progressToken;
      let step = 0;
      const progress = (message: string) => {
        if (progressToken === undefined) return;
        step += 1;
        void extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: step, message } }).catch(() => {});
      };
      const call = { ctx: await ctx.load(), session, sessionId, person, signal: extra.signal, progress };
      const run = () => tool.handle(input.data, call);
      const result = await (work ? work.run(run) : run());
      if (!result.isError) {
        if (!result.structuredContent) throw new McpError(ErrorCode.InvalidParams, `Output validation error: Tool ${name} has an output schema but no structured content was provided`);
        const output = await tool.output.safeParseAsync(result.structuredContent);
        if (!output.success) throw new McpError(ErrorCode.InvalidParams, `Output validation error: Invalid structured content for tool ${name}: ${describeProblems(output.error)}`);
      }
      return result;
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.UrlElicitationRequired) throw error;
      // A refused input's message may quote it (an unknown key): shown like any other answer.
      return { content: [{ type: "text", text: sanitizeUntrustedText(error instanceof Error ? error.message : String(error), Number.POSITIVE_INFINITY) }], isError: true };
    }
  });
}
