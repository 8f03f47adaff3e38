import type { Toolset } from "@custody/shared";
import type { Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ALL_TOOLS } from "./inventory.js";
import type { AnyTool } from "./tool-definition.js";
import { compactSchema, openOutputSchema } from "./compact-schema.js";

/** A tool as tools/list shows it, with the toolset the local policy filters on. */
export interface ToolListing {
  toolset: Toolset;
  tool: Tool;
}

/**
 * A schema as JSON Schema, converted the way the SDK's McpServer does (draft-07 target), without
 * the `$schema` key (twice per tool, 52 bytes each: a tenth of the tools/list budget). Our schemas
 * use only keywords that mean the same in draft-07 and in 2020-12, MCP's default dialect.
 */
function jsonSchemaOf(schema: z.ZodObject, io: "input" | "output"): Tool["inputSchema"] {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: "draft-7", io });
  return (io === "output" ? openOutputSchema(json) : compactSchema(json)) as Tool["inputSchema"];
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
    },
  };
}

/** Every tool's listing, in inventory order: generated into the bundle by build.mjs. */
export function listAllTools(): ToolListing[] {
  return ALL_TOOLS.map(toolListing);
}
