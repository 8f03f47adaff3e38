import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { RunningEmulator } from "@custody/emulator";
import { afterAll, beforeAll } from "vitest";
import { startTestEmulator } from "./mcp-harness.js";
import { tempDir } from "./temp-dirs.js";

const BUILD_SCRIPT = fileURLToPath(new URL("../../build.mjs", import.meta.url));

/** Bundles the server with the package's own build script into a temporary file; returns its path. */
export function buildBundle(): string {
  const outfile = join(tempDir("custody-mcp-bundle-"), "custody-mcp.js");
  execFileSync(process.execPath, [BUILD_SCRIPT, outfile], { stdio: "inherit" });
  return outfile;
}

/**
 * For a file whose tests spawn the built server: the bundle and an emulator, made before its tests
 * and the emulator closed after them. Read the fields inside the tests.
 */
export function bundleAndEmulator(): { bundle: string; emulator: RunningEmulator } {
  const built = {} as { bundle: string; emulator: RunningEmulator };
  beforeAll(async () => {
    built.bundle = buildBundle();
    built.emulator = await startTestEmulator();
  }, 120_000);
  afterAll(async () => {
    await built.emulator?.close();
  });
  return built;
}
