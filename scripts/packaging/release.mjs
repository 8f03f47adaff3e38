// What the packages people install say about themselves, in one place: the names under which they
// are published, the version (the root package.json's), and the settings a user gives the server.
// scripts/package.mjs writes these into the npm manifest, server.json and the MCP bundle's manifest.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const rootManifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));

/** Names and facts shared by every package (docs/packaging.md says why each was chosen). */
export const RELEASE = {
  version: rootManifest.version,
  license: rootManifest.license,
  /** Node versions the bundle runs on, as the monorepo states them. */
  node: rootManifest.engines.node,
  npmName: "custody-workspace-mcp",
  /** The MCP registry's name: io.github.<the GitHub account that publishes>/<the npm name>. */
  registryName: "io.github.custody-toolkit/custody-workspace-mcp",
  author: "Custody Workspace Toolkit",
  bundleName: "custody-workspace",
  displayName: "Custody Workspace",
  /** The MCP registry takes at most 100 characters. */
  description: "Guarded MCP tools for an HSM-protected custody workspace: accounts, staking, confirmed transfers",
  keywords: ["mcp", "model-context-protocol", "custody", "hsm", "staking", "solana", "polkadot", "ethereum"],
};

/**
 * The settings a user gives the server through its environment. `userConfig` names the ones the MCP
 * bundle asks for in the client's settings (Claude Desktop's form); every one is in server.json.
 */
export const SERVER_SETTINGS = [
  {
    env: "CUSTODY_BASE_URL",
    userConfig: "base_url",
    type: "string",
    title: "Workspace base URL",
    description: "The custody module's base URL (https://.../module). Leave empty for the embedded demo workspace (in memory, no real funds).",
  },
  {
    env: "CUSTODY_OPERATOR",
    userConfig: "operator",
    type: "string",
    title: "API operator",
    description: "The API operator the server acts as; required with a base URL.",
  },
  {
    env: "CUSTODY_POLICY",
    userConfig: "policy_file",
    type: "file",
    title: "Local policy file",
    description:
      "The local policy, a JSON file: read-only, toolsets, tools allowed or denied, limits per " +
      "transaction and per day, allowed recipients, validators and contracts.",
  },
  {
    env: "CUSTODY_STORE",
    userConfig: null,
    type: "string",
    secret: true,
    title: "Guard store",
    description:
      "The guard's store: an audit log file, or a postgres://user:password@host:port/database URL shared by replicas. Absent: ~/.custody-mcp/audit.jsonl.",
  },
];

/** The server bundle that `pnpm run build` wrote: its entry and the chunks/ it imports on demand. */
export function builtServer() {
  const dist = join(REPO_ROOT, "mcp-server", "dist");
  const server = { bin: join(REPO_ROOT, "mcp-server", "bin", "custody-mcp.js"), entry: join(dist, "custody-mcp.js"), chunks: join(dist, "chunks") };
  if (!existsSync(server.entry) || !existsSync(server.chunks))
    throw new Error(`the MCP server bundle ${server.entry} (and its chunks/) is missing: run \`pnpm run build\` first`);
  return server;
}
