import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpbManifestAny } from "@anthropic-ai/mcpb";
import type { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { beforeAll, expect } from "vitest";
import { ALL_TOOLS } from "../../mcp-server/src/tools/inventory.js";
import { DEMO } from "../../mcp-server/test/harness/demo-workspace.js";
import { call, testClient } from "../../mcp-server/test/harness/mcp-harness.js";
import { childHome, tempDir } from "../../mcp-server/test/harness/temp-dirs.js";

const PACKAGE_SCRIPT = fileURLToPath(new URL("../../scripts/package.mjs", import.meta.url));
const ROOT_MANIFEST = fileURLToPath(new URL("../../package.json", import.meta.url));
const MCPB_CLI = fileURLToPath(new URL("../../node_modules/@anthropic-ai/mcpb/dist/cli/cli.js", import.meta.url));

interface BuiltPackages {
  tarball: string;
  serverJson: string;
  mcpb: string;
  vsix: string;
}

/** The packages as `pnpm run package` writes them (the script itself, into a temporary folder), from the built server bundle. */
function buildPackages(): BuiltPackages {
  const written = execFileSync(process.execPath, [PACKAGE_SCRIPT, tempDir("custody-packages-")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    .trim()
    .split("\n");
  const named = (suffix: string) => {
    const path = written.find((file) => basename(file).endsWith(suffix));
    if (path === undefined) throw new Error(`scripts/package.mjs wrote no ${suffix}: ${written.join(", ")}`);
    return path;
  };
  return { tarball: named(".tgz"), serverJson: named("server.json"), mcpb: named(".mcpb"), vsix: named(".vsix") };
}

/** The packages, built once before the file's tests: call at the file's top level, read the answer inside a test. */
export function packagesBuiltForThisFile(): () => BuiltPackages {
  let packages: BuiltPackages | undefined;
  beforeAll(() => {
    packages = buildPackages();
  }, 120_000);
  return () => {
    if (packages === undefined) throw new Error("the packages are built in beforeAll: read them inside a test");
    return packages;
  };
}

/** A new user's folder with the npm package installed from the tarball, offline (it has nothing else to fetch). */
export function installedInUserFolder(tarball: string, env: Record<string, string>): string {
  const folder = tempDir("custody-npm-user-");
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], { cwd: folder, env, stdio: ["ignore", "ignore", "inherit"] });
  return folder;
}

/** The bundle unpacked by mcpb's own CLI into a fresh folder and its manifest validated by it; answers the folder and the manifest. */
export function unpackedBundle(mcpb: string): { dir: string; manifest: McpbManifestAny } {
  const dir = tempDir("custody-mcpb-user-");
  execFileSync(process.execPath, [MCPB_CLI, "unpack", mcpb, dir], { stdio: "pipe" });
  execFileSync(process.execPath, [MCPB_CLI, "validate", join(dir, "manifest.json")], { stdio: "pipe" });
  return { dir, manifest: JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as McpbManifestAny };
}

/** The package.json inside the npm tarball. */
export function tarballManifest(tarball: string): Record<string, unknown> & { name: string; version: string } {
  return JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as ReturnType<typeof tarballManifest>;
}

/** The extension's package.json inside the .vsix (a zip: VS Code's layout puts it under extension/). */
export function vsixManifest(vsix: string): { name: string; version: string } {
  return JSON.parse(execFileSync("unzip", ["-p", vsix, "extension/package.json"], { encoding: "utf8" })) as ReturnType<typeof vsixManifest>;
}

/** The root package.json, where the packages' version, license and Node versions come from. */
export function rootManifest(): { version: string; license: string; engines: { node: string } } {
  return JSON.parse(readFileSync(ROOT_MANIFEST, "utf8")) as ReturnType<typeof rootManifest>;
}

/** The one version every package carries: the root package.json's. */
export function releaseVersion(): string {
  return rootManifest().version;
}

/**
 * What a new user's machine has: Node and npm on PATH, an empty home (npm's cache in it),
 * nothing of this repository (pnpm puts its node_modules/.bin on PATH).
 */
export function userEnvironment(): Record<string, string> {
  const home = childHome();
  const path = [dirname(process.execPath), ...(process.env.PATH ?? "").split(delimiter).filter((dir) => !dir.includes("node_modules"))];
  return { PATH: path.join(delimiter), ...home, npm_config_cache: join(home.HOME, ".npm"), npm_config_update_notifier: "false" };
}

/** An MCP client connected over stdio to the server a client configuration launches; a server that does not start is reported with what it wrote on stderr. */
export async function connectStdio(command: string, args: string[], env: Record<string, string>, cwd?: string): Promise<{ client: Client }> {
  let stderr = "";
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: "pipe" });
  transport.stderr?.on("data", (chunk) => (stderr += String(chunk)));
  const client = testClient();
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${command} ${args.join(" ")} did not start an MCP server: ${error instanceof Error ? error.message : String(error)}\n${stderr}`, {
      cause: error,
    });
  }
  return { client };
}

/** The server as a user first meets it: every tool listed, the embedded demo's accounts read, at the release's version. */
export async function expectServesTheDemo(client: Client): Promise<void> {
  expect(client.getServerVersion()?.version).toBe(releaseVersion());
  expect(client.getInstructions()).toContain("EMBEDDED DEMO");
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(ALL_TOOLS.map((tool) => tool.name));
  const accounts = await call(client, "list_accounts");
  expect(accounts.isError).toBe(false);
  expect(accounts.text).toContain(DEMO.solTreasury);
}
