#!/usr/bin/env node
// Builds the .vsix without any prompt: bundles the extension (minified), copies the MCP
// server's bundle (its entry and the chunks/ it imports on demand) into dist/mcp/, and runs vsce.
// Prints the .vsix path on stdout.
//   node extension/scripts/package.mjs [--skip-mcp] [--out <dir>]
// --skip-mcp packages without the MCP server (for development only: the provider then offers none).
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleExtension } from "./bundle.mjs";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const MCP_BUNDLE = resolve(extensionDir, "..", "mcp-server", "dist", "custody-mcp.js");
/** The modules the entry imports, statically or on demand (mcp-server/build.mjs): shipped with it. */
export const MCP_CHUNKS = resolve(extensionDir, "..", "mcp-server", "dist", "chunks");

/** Builds the .vsix into `outDir` (the extension's dist/ by default); returns its path. */
export async function packageExtension({ skipMcp = false, outDir = join(extensionDir, "dist") } = {}) {
  const manifest = JSON.parse(readFileSync(join(extensionDir, "package.json"), "utf8"));
  await bundleExtension({ minify: true });
  const mcpDir = join(extensionDir, "dist", "mcp");
  rmSync(mcpDir, { recursive: true, force: true });
  if (existsSync(MCP_BUNDLE)) {
    if (!existsSync(MCP_CHUNKS)) throw new Error(`the MCP server bundle's chunks ${MCP_CHUNKS} are missing: rebuild the MCP server`);
    mkdirSync(mcpDir, { recursive: true });
    copyFileSync(MCP_BUNDLE, join(mcpDir, "custody-mcp.js"));
    cpSync(MCP_CHUNKS, join(mcpDir, "chunks"), { recursive: true, filter: (source) => !source.endsWith(".map") });
  } else if (!skipMcp) {
    throw new Error(`the MCP server bundle ${MCP_BUNDLE} is missing: build the MCP server first (or pass --skip-mcp for a development package)`);
  }
  const out = join(outDir, `${manifest.name}-${manifest.version}.vsix`);
  const vsce = createRequire(import.meta.url).resolve("@vscode/vsce/vsce");
  execFileSync(
    process.execPath,
    [vsce, "package", "--no-dependencies", "--skip-license", "--allow-missing-repository", "--no-update-package-json", "--out", out],
    { cwd: extensionDir, stdio: ["ignore", process.stderr, process.stderr], env: { ...process.env, VSCE_TELEMETRY: "off" } },
  );
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const out = process.argv.indexOf("--out");
    const outDir = out === -1 ? undefined : resolve(process.argv[out + 1] ?? ".");
    if (outDir !== undefined) mkdirSync(outDir, { recursive: true });
    process.stdout.write(`${await packageExtension({ skipMcp: process.argv.includes("--skip-mcp"), outDir })}\n`);
  } catch (error) {
    process.stderr.write(`package: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
