import type { Person } from "@custody/shared";
import { McpServer } from "@modelcontextprotocol/server";
import { registerPrompts } from "../prompts/register-prompts.js";
import { registerResources } from "../resources/register-resources.js";
import type { WorkInFlight } from "../shutdown/work-in-flight.js";
import { registerTools } from "../tools/register-tools.js";
import { serverInstructions } from "./instructions.js";
import { noSchemaValidator } from "./no-schema-validator.js";
import { personalContext, type ContextSource } from "./server-context.js";
import { SERVER_NAME, SERVER_VERSION } from "./server-identity.js";

export interface McpServerOptions {
  /** Tracks the tool calls under way, so a shutdown can let them finish. */
  work?: WorkInFlight;
  /** The signed-in person the session (or the 2026-07-28 request) belongs to; null or absent for a single user. */
  person?: Person | null;
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
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Custody workspace" },
    { capabilities: { logging: {} }, instructions: serverInstructions(ctx, ctx.baseUrl), jsonSchemaValidator: noSchemaValidator },
  );
  registerTools(server, ctx, { work: options.work, person });
  registerResources(server, ctx, person);
  registerPrompts(server);
  return server;
}
