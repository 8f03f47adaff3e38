// Bundles the server into one file, dist/custody-mcp.js, that bin/custody-mcp.js runs.
// Workspace packages are bundled from their TypeScript sources (the @custody/source condition),
// so the bundle never depends on a stale dist/ of shared or the emulator.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const outfile = process.argv[2] ?? `${root}dist/custody-mcp.js`;

await build({
  entryPoints: [`${root}src/cli/main.ts`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["@custody/source"],
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  // Some bundled dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: 'import { createRequire as __custodyCreateRequire } from "node:module"; const require = __custodyCreateRequire(import.meta.url);' },
});
