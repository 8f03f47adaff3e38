import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { COMMON_OPTIONS } from "../../../mcp-server/bundle-options.mjs";

export const REPO_DIR = fileURLToPath(new URL("../../../", import.meta.url));
const MCP_BUILD_SCRIPT = join(REPO_DIR, "mcp-server", "build.mjs");

export function bundleDir(): string {
  return mkdtempSync(join(tmpdir(), "custody-bench-"));
}

/** The MCP server exactly as shipped: its own build script, into `outfile`. */
export function buildCustodyServer(outfile: string): string {
  execFileSync(process.execPath, [MCP_BUILD_SCRIPT, outfile], { stdio: "inherit" });
  return outfile;
}

/** A TypeScript entry bundled with the MCP server's common options (workspace packages from source), plus `plugins`. */
export async function bundleEntry(entry: string, outfile: string, plugins: Plugin[] = []): Promise<string> {
  await build({ ...COMMON_OPTIONS, entryPoints: [entry], outfile, plugins });
  return outfile;
}

export const EMULATOR_CLI_ENTRY = join(REPO_DIR, "packages", "emulator", "src", "cli.ts");
export const ONE_TOOL_SERVER_ENTRY = fileURLToPath(new URL("../fixtures/one-tool-sdk-server.ts", import.meta.url));
export const MINIMAL_RESPONDER = fileURLToPath(new URL("../fixtures/minimal-stdio-responder.mjs", import.meta.url));
export const BARE_JSON_SERVER = fileURLToPath(new URL("../fixtures/bare-json-server.mjs", import.meta.url));
export const REPORT_PEAK_RSS = fileURLToPath(new URL("../fixtures/report-peak-rss.mjs", import.meta.url));
