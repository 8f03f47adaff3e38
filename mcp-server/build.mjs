// Bundles the server that bin/custody-mcp.js runs: the entry dist/custody-mcp.js and, beside it in
// dist/chunks/, the modules it imports only when needed (the embedded emulator without a base URL,
// the Streamable HTTP transport with --http, the tools on their first call). Ship the entry and the
// whole chunks/ folder together. Workspace packages are bundled from their TypeScript sources (the
// @custody/source condition), so the bundle never depends on a stale dist/ of shared or the emulator.
//   node build.mjs [outfile]   (default dist/custody-mcp.js; the chunks go to chunks/ beside it)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL(".", import.meta.url));
const outfile = process.argv[2] ?? `${root}dist/custody-mcp.js`;
const outdir = dirname(outfile);

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["@custody/source"],
  legalComments: "none",
  logLevel: "warning",
  // Some bundled dependencies are CommonJS and call require(); give each ESM output file one.
  banner: { js: 'import { createRequire as __custodyCreateRequire } from "node:module"; const require = __custodyCreateRequire(import.meta.url);' },
};

/** The tools/list listings, generated from the tools' zod schemas by the sources' own listAllTools. */
async function toolListings() {
  const scratch = mkdtempSync(join(tmpdir(), "custody-mcp-listings-"));
  try {
    const script = join(scratch, "tool-listing.mjs");
    await build({ ...common, entryPoints: [`${root}src/tools/tool-listing.ts`], outfile: script });
    const { listAllTools } = await import(pathToFileURL(script).href);
    return JSON.stringify(listAllTools());
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * shared/ declares nothing at its top level but constants, schemas and functions: let esbuild leave
 * out (or move to the chunks that use them) the modules of its barrel that the start does not use.
 */
const sharedWithoutSideEffects = {
  name: "shared-without-side-effects",
  setup(builder) {
    const sharedSources = join(root, "..", "shared", "src");
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "resolving") return undefined;
      const resolved = await builder.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "resolving" });
      if (resolved.errors.length > 0 || !resolved.path.startsWith(sharedSources)) return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

/**
 * zod's 48 locale modules (370 KB, a quarter of the code a start parses) are reachable only through
 * `z.locales`, which nothing here uses: keep English, zod's default (its schemas import it directly).
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: "js" }));
  },
};

/**
 * The SDK's Server imports Ajv (about 280 KB with its dependencies, 15 to 20 ms of a start) for a
 * default validator it builds only when none is given; create-server.ts always gives one
 * (src/server/lazy-schema-validator.ts), which loads Ajv when a form is first sent. Give the
 * Server's import a class that refuses to be built, so Ajv is left out of the start files.
 */
const sdkDefaultValidatorLeftOut = {
  name: "sdk-default-validator-left-out",
  setup(builder) {
    builder.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, (args) => {
      if (!/@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/.test(args.importer)) return undefined;
      return { path: "sdk-default-validator", namespace: "custody-build" };
    });
    builder.onLoad({ filter: /^sdk-default-validator$/, namespace: "custody-build" }, () => ({
      contents: 'export class AjvJsonSchemaValidator { constructor() { throw new Error("custody-mcp bundle: pass jsonSchemaValidator to the Server (the SDK default is left out)"); } }',
      loader: "js",
    }));
  },
};

const listings = await toolListings();
// Chunk names carry a content hash: clear the previous build's so none is left behind.
rmSync(join(outdir, "chunks"), { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { [basename(outfile, ".js")]: `${root}src/cli/main.ts` },
  outdir,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: true,
  plugins: [sharedWithoutSideEffects, zodEnglishOnly, sdkDefaultValidatorLeftOut],
  // tools/list is answered from this: a start builds no tool schema (src/tools/tool-catalog.ts).
  define: { CUSTODY_TOOL_LISTINGS: JSON.stringify(listings) },
});
