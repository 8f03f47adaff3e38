// Bundles the server that bin/custody-mcp.js runs: the entry dist/custody-mcp.js and, beside it in
// dist/chunks/, the modules it imports only when needed (the embedded emulator without a base URL,
// the Streamable HTTP transport with --http, the tools on their first call). Ship the entry and the
// whole chunks/ folder together. Workspace packages are bundled from their TypeScript sources (the
// @custody/source condition), so the bundle never depends on a stale dist/ of shared or the emulator.
//   node build.mjs [outfile]   (default dist/custody-mcp.js; the chunks go to chunks/ beside it)
import { rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { COMMON_OPTIONS, sdkDefaultValidatorLeftOut, sharedWithoutSideEffects, zodEnglishOnly } from "./bundle-options.mjs";
import { confirmViewHtml } from "./confirm-view.mjs";
import { toolListings } from "./tool-listings.mjs";

const root = fileURLToPath(new URL(".", import.meta.url));
const outfile = process.argv[2] ?? `${root}dist/custody-mcp.js`;
const outdir = dirname(outfile);

const listings = JSON.stringify(await toolListings());
const confirmView = await confirmViewHtml();
// Chunk names carry a content hash: clear the previous build's so none is left behind.
rmSync(join(outdir, "chunks"), { recursive: true, force: true });
await build({
  ...COMMON_OPTIONS,
  entryPoints: { [basename(outfile, ".js")]: `${root}src/cli/launch.ts` },
  outdir,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: true,
  plugins: [sharedWithoutSideEffects, zodEnglishOnly, sdkDefaultValidatorLeftOut],
  // tools/list is answered from this: a start builds no tool schema (src/tools/tool-catalog.ts).
  // The confirmation view's HTML, in the chunk its first read loads (src/app-view/view-html.ts).
  define: { CUSTODY_TOOL_LISTINGS: JSON.stringify(listings), CUSTODY_CONFIRM_VIEW_HTML: JSON.stringify(confirmView) },
});
