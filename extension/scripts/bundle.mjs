#!/usr/bin/env node
// Bundles the extension into one CommonJS file, dist/extension.cjs, with `vscode` external.
// Workspace packages are bundled from their TypeScript sources (the @custody/source condition),
// so the bundle never depends on a stale dist/ of another package.
import { build } from "esbuild";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export async function bundleExtension({ minify = false } = {}) {
  const outfile = join(extensionDir, "dist", "extension.cjs");
  await build({
    entryPoints: [join(extensionDir, "src", "extension.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    conditions: ["@custody/source"],
    mainFields: ["module", "main"],
    // ESM sources may read import.meta.url; in a CommonJS bundle it comes from __filename.
    define: { "import.meta.url": "__custody_import_meta_url" },
    banner: { js: 'const __custody_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    sourcemap: minify ? false : "linked",
    minify,
    keepNames: true,
    legalComments: "none",
    logLevel: "warning",
  });
  return outfile;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outfile = await bundleExtension({ minify: process.argv.includes("--minify") });
  process.stdout.write(`${outfile}\n`);
}
