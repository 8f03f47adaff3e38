import type { AnyTool } from "./tool-definition.js";

let tools: Promise<ReadonlyMap<string, AnyTool>> | undefined;

/** A tool's definition, zod schemas and handler: every tool is built on the first call of any (a chunk of the bundle). */
export async function loadTool(name: string): Promise<AnyTool | undefined> {
  tools ??= import("./inventory.js").then(({ ALL_TOOLS, APP_TOOLS }) => new Map([...ALL_TOOLS, ...APP_TOOLS].map((tool) => [tool.name, tool])));
  return (await tools).get(name);
}
