import type { Toolset } from "@custody/shared";
import type { Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { TOOLSET_ICONS } from "../icons/icons.js";
import { ALL_TOOLS, APP_TOOLS } from "./inventory.js";
import type { AnyTool } from "./tool-definition.js";
import { compactSchema } from "./compact-schema.js";

/** A tool as tools/list shows it, with the toolset the local policy filters on and its view (for clients that show views). */
export interface ToolListing {
  toolset: Toolset;
  tool: Tool;
  view?: string;
  appOnly?: true;
}

/**
 * A schema as JSON Schema 2020-12, converted as the SDK's McpServer converts (zod's own
 * toJSONSchema, `$schema` kept), compacted (compactSchema); an output schema open, its fields typed.
 */
function jsonSchemaOf(schema: z.ZodObject, io: "input" | "output"): Tool["inputSchema"] {
  return compactSchema(z.toJSONSchema(schema, { target: "draft-2020-12", io }), io === "output") as Tool["inputSchema"];
}

export function toolListing(tool: AnyTool): ToolListing {
  return {
    toolset: tool.toolset,
    tool: {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.input, "input"),
      annotations: { ...tool.annotations },
      outputSchema: jsonSchemaOf(tool.output, "output"),
      icons: TOOLSET_ICONS[tool.toolset],
    },
    ...(tool.view === undefined ? {} : { view: tool.view }),
    ...(tool.appOnly === true ? { appOnly: true as const } : {}),
  };
}

/** Every tool's listing, in inventory order, then the app-only tools: generated into the bundle by build.mjs. */
export function listAllTools(): ToolListing[] {
  return [...ALL_TOOLS, ...APP_TOOLS].map(toolListing);
}
