#!/usr/bin/env node
// Writes the packages people install into dist-packages/ (or the folder given): the MCP server as
// an npm tarball, server.json for the MCP registry, the MCP bundle (.mcpb) and the VS Code extension
// (.vsix, with the server inside), all of the version in the root package.json. Reuses the server bundle: run `pnpm run build` first. Prints each path.
//   node scripts/package.mjs [outdir]
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageExtension } from "../extension/scripts/package.mjs";
import { writeMcpBundle } from "./packaging/mcp-bundle.mjs";
import { writeNpmPackage } from "./packaging/npm-package.mjs";
import { REPO_ROOT } from "./packaging/release.mjs";
import { writeServerJson } from "./packaging/server-json.mjs";

const DEFAULT_OUTDIR = join(REPO_ROOT, "dist-packages");
const outdir = resolve(process.argv[2] ?? DEFAULT_OUTDIR);
try {
  // Only our own folder is emptied (a previous version's files would linger); a folder given is written into.
  if (outdir === DEFAULT_OUTDIR) rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const written = [writeNpmPackage(outdir), writeServerJson(outdir), await writeMcpBundle(outdir), await packageExtension({ outDir: outdir })];
  process.stdout.write(`${written.join("\n")}\n`);
} catch (error) {
  process.stderr.write(`package: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
