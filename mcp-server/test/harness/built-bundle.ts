import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { RunningEmulator } from "@custody/emulator";
import { afterAll, beforeAll } from "vitest";
import { DEMO } from "./demo-workspace.js";
import { startTestEmulator } from "./mcp-harness.js";
import { childHome, tempDir } from "./temp-dirs.js";

const BUILD_SCRIPT = fileURLToPath(new URL("../../build.mjs", import.meta.url));

/** Bundles the server with the package's own build script into a temporary file; returns its path. */
export function buildBundle(): string {
  const outfile = join(tempDir("custody-mcp-bundle-"), "custody-mcp.js");
  execFileSync(process.execPath, [BUILD_SCRIPT, outfile], { stdio: "inherit" });
  return outfile;
}

/** The environment of a spawned bundle on the workspace at `baseUrl`, as the demo's treasury bot, with a home and an audit log of its own. */
export function bundleEnv(baseUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    ...childHome(),
    CUSTODY_BASE_URL: baseUrl,
    CUSTODY_OPERATOR: DEMO.treasuryBot,
    CUSTODY_AUDIT_LOG: join(tempDir("custody-mcp-audit-"), "audit.jsonl"),
  };
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
