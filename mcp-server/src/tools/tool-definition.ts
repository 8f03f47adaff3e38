import type { Toolset } from "@custody/shared";
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { ToolCall } from "../server/tool-call.js";

/** The four hints, always stated: a client must never have to guess whether a tool writes. */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
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
