import type { Person, Toolset } from "@custody/shared";
import type { Server, CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import type { PersonInput } from "../guard/elicitation.js";
import type { z } from "zod";
import type { ServerContext } from "../server/server-context.js";

/** The four hints, always stated: a client must never have to guess whether a tool writes. */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler receives besides its arguments. */
export interface ToolCall {
  ctx: ServerContext;
  /** The MCP session's low-level server (on 2026-07-28, the request's own): client capabilities. */
  session: Server;
  /** Whether the person can be asked through the client, and the answer a retried call carries. */
  input: PersonInput;
  /** The signed-in person the session belongs to (an OAuth access token's subject), or null for a single user (stdio, the shared bearer token). */
  person: Person | null;
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for them (a progress token), so a long call does not time out. */
  progress(message: string): void;
  /** Tells the subscribers of the account and the transaction (on every replica) that a write sent changed them. */
  written(accountId: number, transactionId: number | null): void;
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  /** For a model: short, when to use the tool and what it returns. */
  description: string;
  toolset: Toolset;
  /** A flat object, no top-level union, refusing keys it does not declare (strictInput). */
  input: z.ZodObject<Shape, z.core.$strict>;
  output: z.ZodObject;
  annotations: ToolHints;
  /** The `ui://` view its answers render in, linked (`_meta.ui.resourceUri`) for clients that show views. */
  view?: string;
  /** Only its view calls it: listed (visibility ["app"]) and callable only for clients that show views, never shown to a model. */
  appOnly?: boolean;
  /** The answer, or (a write's confirmation) the person's question as an input-required result. */
  handle(args: z.output<z.ZodObject<Shape>>, call: ToolCall): Promise<CallToolResult | InputRequiredResult>;
}

/** Any tool, its argument type erased for the inventory. */
export type AnyTool = ToolDefinition;
