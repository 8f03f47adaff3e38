import type { Person } from "@custody/shared";
import { confirmsWrites, registerConfirmView } from "../app-view/view-resource.js";
import { McpServer } from "@modelcontextprotocol/server";
import { registerCompletions } from "../completions/register-completions.js";
import { SERVER_ICONS } from "../icons/icons.js";
import { registerPrompts } from "../prompts/register-prompts.js";
import { readableResources, registerResources } from "../resources/register-resources.js";
import { registerResourceListing } from "../resources/resource-listing.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import type { ResourceChanges } from "../subscriptions/resource-changes.js";
import { registerResourceSubscriptions } from "../subscriptions/session-subscriptions.js";
import { registerTools } from "../tools/register-tools.js";
import { loadTool } from "../tools/load-tool.js";
import { serverInstructions } from "../server/instructions.js";
import { noSchemaValidator } from "../server/no-schema-validator.js";
import { personalContext, type ContextSource } from "../server/server-context.js";
import { SERVER_NAME, SERVER_VERSION } from "../server/server-identity.js";

export interface McpServerOptions {
  /** Tracks the tool calls under way, so a shutdown can let them finish. */
  work?: WorkInFlight;
  /** The signed-in person the session (or the 2026-07-28 request) belongs to; null or absent for a single user. */
  person?: Person | null;
  /** The process's resource changes: with them, resources can be subscribed to and writes tell subscribers what they changed. */
  changes?: ResourceChanges;
  /** Called after each tools/list is answered (stdio warms up on the first: the client is about to offer the tools). */
  toolsListed?: () => void;
  /**
   * The one method the server is built to answer (a 2026-07-28 request's): for tools/call only the
   * tools are registered, since a call's answer reads nothing of the resources, prompts or
   * completions, and building those was most of a server's cost, paid on every call. Absent (a
   * session, stdio) or any other method: everything.
   */
  method?: unknown;
}

/**
 * One MCP server (one session) over the process's shared context: the tools the policy allows,
 * the resources and the prompts. Sessions share tokens, audit log and client.
 */
export function createMcpServer(source: ContextSource, options: McpServerOptions = {}): McpServer {
  const person = options.person ?? null;
  // Everything the session does runs as the operator the person's role acts as.
  const ctx = personalContext(source, person);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Custody workspace", icons: SERVER_ICONS },
    { capabilities: { logging: {} }, instructions: serverInstructions(ctx, ctx.baseUrl), jsonSchemaValidator: noSchemaValidator },
  );
  registerTools(server, ctx, { work: options.work, person, changes: options.changes, loadTool, listed: options.toolsListed });
  if (options.method === "tools/call") return server;
  const readable = readableResources(ctx.policy, person);
  registerResources(server, ctx, person, readable);
  const fixed = confirmsWrites(ctx.policy, person) ? [registerConfirmView(server)] : [];
  registerResourceListing(server, ctx, { fixed, accounts: readable.account });
  // Subscriptions are offered with the resources they are to: none where the person may read neither accounts nor transactions.
  if (options.changes !== undefined && (readable.account || readable.transaction)) registerResourceSubscriptions(server, options.changes, readable);
  registerPrompts(server);
  registerCompletions(server, ctx, person);
  return server;
}
