import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

/** shared's sources bundled into one ES module in `dir`, for child processes to import; returns its file URL. */
export function bundleShared(dir: string): string {
  const bundle = join(dir, "shared.mjs");
  buildSync({
    entryPoints: [fileURLToPath(new URL("../../src/index.ts", import.meta.url))],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
  return pathToFileURL(bundle).href;
}
