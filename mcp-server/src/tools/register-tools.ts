import { fieldIssues, grantFor, ROOT_PATH, sanitizeUntrustedText, toolPermission, type Person, type Policy } from "@custody/shared";
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type McpServer, type CallToolResult, type InputRequiredResult, type Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { personInput } from "../guard/elicitation.js";
import type { DeferredContext } from "../server/server-context.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import { loadTool, toolListings } from "./tool-catalog.js";
import type { ToolListing } from "./tool-listing.js";

/** The problems of a refused input, each naming its field (an unknown key's message names the key). */
function describeProblems(error: z.ZodError): string {
  return fieldIssues(error)
    .map((issue) => (issue.path === ROOT_PATH ? issue.message : `${issue.path}: ${issue.message}`))
    .join("; ");
}

/**
 * tools/call's params with the arguments as the client sent them: the protocol's own schema copies
 * them through a record, which drops a `__proto__` key without a word, so the tool's strict input
 * check (which refuses it by name) never saw it.
 */
const CallToolParamsAsSent = z.looseObject({ name: z.string(), arguments: z.unknown().optional() });

/** A refused call's text; a protocol error keeps the "MCP error <code>: " prefix its text always had (SDK v1 wrote it, v2 does not). */
function refusalText(error: unknown): string {
  if (error instanceof ProtocolError) return `MCP error ${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function allowed(policy: Policy, { toolset, tool }: ToolListing, person: Person | null): boolean {
  return toolPermission(policy, { name: tool.name, toolset, readOnly: tool.annotations?.readOnlyHint === true }, person).allowed;
}

/** The tools a policy shows, by what decides it for a person (their role, none, or a refusal): kept for the process. */
const visibleByPolicy = new WeakMap<Policy, Map<unknown, Promise<Map<string, Tool>>>>();
const REFUSED = Symbol("no role matches");

/**
 * The tools the policy lets this person see, computed once per policy and role: a 2026-07-28 request
 * builds a server of its own, and should not filter the listings again.
 */
function visibleTools(policy: Policy, person: Person | null): Promise<Map<string, Tool>> {
  const grant = grantFor(policy, person);
  const key = grant.refusal === null ? grant.role : REFUSED;
  let byGrant = visibleByPolicy.get(policy);
  if (!byGrant) {
    byGrant = new Map();
    visibleByPolicy.set(policy, byGrant);
  }
  let visible = byGrant.get(key);
  if (!visible) {
    visible = toolListings().then((listings) => new Map(listings.filter((listing) => allowed(policy, listing, person)).map(({ tool }) => [tool.name, tool])));
    byGrant.set(key, visible);
  }
  return visible;
}

/**
 * tools/list and tools/call on the session's low-level server, as McpServer.registerTool would
 * answer them (same capability, same errors), but without building any tool at start: tools/list
 * is answered from the listings generated at build time, and a tool's zod schemas and handler are
 * loaded on the first call. The tools the local policy refuses (the session's person through their
 * role) are neither listed nor callable.
 */
export function registerTools(
  server: McpServer,
  ctx: DeferredContext,
  { work, person, changes, listed }: { work: WorkInFlight | undefined; person: Person | null; changes?: ResourceChanges | undefined; listed?: (() => void) | undefined },
): void {
  const session = server.server;
  const visible = () => visibleTools(ctx.policy, person);
  session.registerCapabilities({ tools: { listChanged: true } });
  session.setRequestHandler("tools/list", async () => {
    const tools = [...(await visible()).values()];
    // After the answer is written: whatever the callback starts must not delay it.
    if (listed) setImmediate(listed);
    return { tools };
  });
  session.setRequestHandler("tools/call", { params: CallToolParamsAsSent }, async (params, extra): Promise<CallToolResult | InputRequiredResult> => {
    const name = params.name;
    try {
      const tool = (await visible()).has(name) ? await loadTool(name) : undefined;
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      const input = await tool.input.safeParseAsync(params.arguments ?? {});
      if (!input.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Input validation error: Invalid arguments for tool ${name}: ${describeProblems(input.error)}`);
      const progressToken = extra.mcpReq._meta?.progressToken;
      let step = 0;
      const progress = (message: string) => {
        if (progressToken === undefined) return;
        step += 1;
        void extra.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: step, message } }).catch(() => {});
      };
      const written = (accountId: number, transactionId: number | null) => changes?.written(accountId, transactionId);
      const call = { ctx: await ctx.load(), session, input: personInput(session, extra), person, signal: extra.mcpReq.signal, progress, written };
      const run = () => tool.handle(input.data, call);
      const result = await (work ? work.run(run) : run());
      // The person's question: the client (or, on a 2025-11-25 session, the SDK) asks and calls again.
      if (isInputRequiredResult(result)) return result;
      if (!result.isError) {
        if (!result.structuredContent) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Output validation error: Tool ${name} has an output schema but no structured content was provided`);
        const output = await tool.output.safeParseAsync(result.structuredContent);
        if (!output.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Output validation error: Invalid structured content for tool ${name}: ${describeProblems(output.error)}`);
      }
      return result;
    } catch (error) {
      if (error instanceof ProtocolError && error.code === ProtocolErrorCode.UrlElicitationRequired) throw error;
      // A refused input's message may quote it (an unknown key): shown like any other answer.
      return { content: [{ type: "text", text: sanitizeUntrustedText(refusalText(error), Number.POSITIVE_INFINITY) }], isError: true };
    }
  });
}
