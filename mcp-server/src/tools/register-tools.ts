import {
  fieldIssues,
  grantFor,
  listedToolQuery,
  ROOT_PATH,
  sanitizeUntrustedText,
  shortenedText,
  toolPermission,
  type Person,
  type Policy,
  errorMessage,
} from "@custody/shared";
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type McpServer,
  type CallToolResult,
  type InputRequiredResult,
  type Tool,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { declaredCapabilities, personInput } from "../server/elicitation.js";
import { showsViews } from "../server/confirm-view.js";
import type { DeferredContext } from "../server/server-context.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import { toolListings } from "./tool-catalog.js";
import type { AnyTool } from "./tool-definition.js";
import type { ToolListing } from "./tool-listing.js";
import { cancelledCallSignal } from "../server/cancelled-call.js";

/** The longest tool name quoted in an error: a tool's name is at most 128 characters (the MCP spec's SHOULD). */
const TOOL_NAME_SHOWN = 128;

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
  return errorMessage(error);
}

function allowed(policy: Policy, { toolset, tool }: ToolListing, person: Person | null): boolean {
  return toolPermission(policy, listedToolQuery({ name: tool.name, toolset, annotations: tool.annotations }), person).allowed;
}

/** What tools/list answers a client that shows views, and one that does not; the names either may call. */
interface VisibleTools {
  plain: Tool[];
  withViews: Tool[];
  /** Callable by any client that sees it. */
  plainNames: Set<string>;
  /** Callable only by a client that shows views. */
  viewNames: Set<string>;
}

/** The tools a policy shows, by what decides it for a person (their role, none, or a refusal): kept for the process. */
const visibleByPolicy = new WeakMap<Policy, Map<unknown, Promise<VisibleTools>>>();
const REFUSED = Symbol("no role matches");

/**
 * For a client that shows views: each tool linked to its view, as the MCP Apps extension reads it,
 * an app-only tool with visibility ["app"] (hosts show it to no model). App-only tools are listed
 * only with a write tool the policy allows.
 */
function withViews(listings: readonly ToolListing[]): Tool[] {
  const anyWrite = listings.some((listing) => listing.view !== undefined && listing.appOnly !== true);
  return listings
    .filter((listing) => listing.appOnly !== true || anyWrite)
    .map(({ tool, view, appOnly }) =>
      view === undefined ? tool : { ...tool, _meta: { ui: { resourceUri: view, ...(appOnly === true ? { visibility: ["app" as const] } : {}) } } },
    );
}

function visibleSets(listings: readonly ToolListing[]): VisibleTools {
  const plain = listings.filter((listing) => listing.appOnly !== true);
  const viewed = withViews(listings);
  return {
    plain: plain.map(({ tool }) => tool),
    withViews: viewed,
    plainNames: new Set(plain.map(({ tool }) => tool.name)),
    viewNames: new Set(viewed.map((tool) => tool.name)),
  };
}

/**
 * The tools the policy lets this person see, computed once per policy and role: a 2026-07-28 request
 * builds a server of its own, and should not filter the listings again.
 */
function visibleTools(policy: Policy, person: Person | null): Promise<VisibleTools> {
  const grant = grantFor(policy, person);
  const key = grant.refusal === null ? grant.role : REFUSED;
  let byGrant = visibleByPolicy.get(policy);
  if (!byGrant) {
    byGrant = new Map();
    visibleByPolicy.set(policy, byGrant);
  }
  let visible = byGrant.get(key);
  if (!visible) {
    // An app-only tool decides the writes the policy allows (its handler asks for the write it decides): it is kept when one of them is.
    visible = toolListings().then((listings) => visibleSets(listings.filter((listing) => listing.appOnly === true || allowed(policy, listing, person))));
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
/** What registering the tools takes besides the server and its context; loadTool builds a tool on its first call (the assembly's chunk). */
export interface ToolRegistration {
  work: WorkInFlight | undefined;
  person: Person | null;
  changes?: ResourceChanges | undefined;
  loadTool: (name: string) => Promise<AnyTool | undefined>;
  /** Called after a tools/list answer is written (stdio's warm-up starts there). */
  listed?: (() => void) | undefined;
}

export function registerTools(server: McpServer, ctx: DeferredContext, { work, person, changes, loadTool, listed }: ToolRegistration): void {
  const session = server.server;
  const visible = () => visibleTools(ctx.policy, person);
  session.registerCapabilities({ tools: { listChanged: true } });
  // The views (write tools linked to their confirmation view, the view's app-only tool) only for a client that declared the MCP Apps extension.
  session.setRequestHandler("tools/list", async (_params, extra) => {
    const tools = await visible();
    // After the answer is written: whatever the callback starts must not delay it.
    if (listed) setImmediate(listed);
    return { tools: showsViews(declaredCapabilities(session, extra)) ? tools.withViews : tools.plain };
  });
  session.setRequestHandler("tools/call", { params: CallToolParamsAsSent }, async (params, extra): Promise<CallToolResult | InputRequiredResult> => {
    const name = params.name;
    const tools = await visible();
    const callable = tools.plainNames.has(name) || (tools.viewNames.has(name) && showsViews(declaredCapabilities(session, extra)));
    const tool = callable ? await loadTool(name) : undefined;
    // A tool the session does not have is a protocol error (JSON-RPC -32602), as the SDK's own McpServer answers it; only
    // what happens once a tool is called (its arguments refused included) is the tool's result, for the model to read.
    // The name is the client's, of any length and any characters: quoted sanitised, on one line, cut.
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${shortenedText(name, TOOL_NAME_SHOWN, "tool name")} not found`);
    try {
      // The tools' schemas are synchronous (no async refinement): parsed without the promises safeParseAsync adds to every call.
      const input = tool.input.safeParse(params.arguments ?? {});
      if (!input.success)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Input validation error: Invalid arguments for tool ${name}: ${describeProblems(input.error)}`,
        );
      const progressToken = extra.mcpReq._meta?.progressToken;
      let step = 0;
      const progress = (message: string) => {
        if (progressToken === undefined) return;
        step += 1;
        void extra.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: step, message } }).catch(() => {});
      };
      const written = (accountId: number, transactionId: number | null) => changes?.written(accountId, transactionId);
      const call = {
        ctx: await ctx.load(),
        session,
        input: personInput(session, extra),
        person,
        signal: cancelledCallSignal(extra.mcpReq.signal),
        progress,
        written,
      };
      const run = () => tool.handle(input.data, call);
      const result = await (work ? work.run(run) : run());
      // The person's question: the client (or, on a 2025-11-25 session, the SDK) asks and calls again.
      if (isInputRequiredResult(result)) return result;
      if (!result.isError) {
        if (!result.structuredContent)
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Output validation error: Tool ${name} has an output schema but no structured content was provided`,
          );
        const output = tool.output.safeParse(result.structuredContent);
        if (!output.success)
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Output validation error: Invalid structured content for tool ${name}: ${describeProblems(output.error)}`,
          );
      }
      return result;
    } catch (error) {
      if (error instanceof ProtocolError && error.code === ProtocolErrorCode.UrlElicitationRequired) throw error;
      // A refused input's message may quote it (an unknown key): shown like any other answer.
      return { content: [{ type: "text", text: sanitizeUntrustedText(refusalText(error), Number.POSITIVE_INFINITY) }], isError: true };
    }
  });
}
