import { node22Cli, type Node22Cli } from "./node22-cli.js";

export const CONFORMANCE_PACKAGE = "@modelcontextprotocol/conformance";
export const CONFORMANCE_VERSION = "0.2.0-alpha.12";

export type ConformanceTools = Node22Cli;

/** Node 22 and the conformance runner (its `conformance` bin), from mcp-server/.tools/ or installed there on first run. */
export function conformanceTools(): Promise<ConformanceTools> {
  return node22Cli({ name: CONFORMANCE_PACKAGE, version: CONFORMANCE_VERSION, bin: "conformance", cacheName: "conformance" });
}
