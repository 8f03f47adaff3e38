// The tools/list listings, generated from the tools' zod schemas by the sources' own listAllTools
// (src/tools/tool-listing.ts): build.mjs writes them into the bundle, scripts/package.mjs lists the
// tools in the MCP bundle's manifest from them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { COMMON_OPTIONS } from "./bundle-options.mjs";

const LISTING_SOURCE = new URL("./src/tools/tool-listing.ts", import.meta.url);

/** Every tool's listing ({ toolset, tool }), in inventory order. */
export async function toolListings() {
  const scratch = mkdtempSync(join(tmpdir(), "custody-mcp-listings-"));
  try {
    const script = join(scratch, "tool-listing.mjs");
    await build({ ...COMMON_OPTIONS, entryPoints: [fileURLToPath(LISTING_SOURCE)], outfile: script });
    const { listAllTools } = await import(pathToFileURL(script).href);
    return listAllTools();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
