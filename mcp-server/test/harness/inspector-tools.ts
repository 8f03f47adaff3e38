import { node22Cli, type Node22Cli } from "./node22-cli.js";

export const INSPECTOR_PACKAGE = "@modelcontextprotocol/inspector";
export const INSPECTOR_VERSION = "2.12.0";

/** Node 22 and the MCP Inspector (its `mcp-inspector` bin, run with --cli), from mcp-server/.tools/ or installed there on first run. */
export function inspectorTools(): Promise<Node22Cli> {
  return node22Cli({ name: INSPECTOR_PACKAGE, version: INSPECTOR_VERSION, bin: "mcp-inspector", cacheName: "inspector" });
}
