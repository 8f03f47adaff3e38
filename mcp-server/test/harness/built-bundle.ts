import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { tempDir } from "./temp-dirs.js";

const BUILD_SCRIPT = fileURLToPath(new URL("../../build.mjs", import.meta.url));

/** Bundles the server with the package's own build script into a temporary file; returns its path. */
export function buildBundle(): string {
  const outfile = join(tempDir("custody-mcp-bundle-"), "custody-mcp.js");
  execFileSync(process.execPath, [BUILD_SCRIPT, outfile], { stdio: "inherit" });
  return outfile;
}
