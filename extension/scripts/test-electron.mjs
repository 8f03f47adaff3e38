#!/usr/bin/env node
// The @vscode/test-electron suite: the end-to-end checks inside a real VS Code desktop build.
// VS Code cannot be downloaded on every machine, so the suite runs only when
// VSCODE_EXECUTABLE_PATH names a VS Code executable; otherwise it says so and exits 0.
//   VSCODE_EXECUTABLE_PATH=/path/to/code node extension/scripts/test-electron.mjs
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleExtension } from "./bundle.mjs";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = resolve(extensionDir, "..");
const executable = process.env.VSCODE_EXECUTABLE_PATH;

if (!executable) {
  process.stdout.write(
    "test-electron suite: not run: VSCODE_EXECUTABLE_PATH is not set. VS Code cannot be " +
      "downloaded on this machine, so @vscode/test-electron needs a VS Code executable given; the " +
      "same checks ran in code-server (node extension/scripts/e2e.mjs).\n",
  );
  process.exit(0);
}

/** The emulator CLI on the demo workspace, on a free port; resolves with its ready line. */
function startEmulator() {
  const child = spawn(process.execPath, [join(repoRoot, "packages", "emulator", "bin", "custody-emulator.js"), "serve", "--port", "0", "--seed", "demo"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolveReady, reject) => {
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", (line) => resolveReady({ child, ready: JSON.parse(line) }));
  });
}

await bundleExtension();
const suite = join(extensionDir, "dist", "test-electron", "suite.cjs");
await build({
  entryPoints: [join(extensionDir, "test", "electron", "suite.ts")],
  outfile: suite,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  conditions: ["@custody/source"],
  logLevel: "warning",
});
const { runTests } = await import("@vscode/test-electron");
const { child, ready } = await startEmulator();
const userData = mkdtempSync(join(tmpdir(), "custody-electron-"));
try {
  await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: extensionDir,
    extensionTestsPath: suite,
    launchArgs: ["--disable-extensions", "--disable-workspace-trust", "--user-data-dir", userData, "--disable-gpu"],
    extensionTestsEnv: { CUSTODY_TEST_BASE_URL: ready.base_url, CUSTODY_TEST_OPERATOR: "staking-bot" },
  });
  process.stdout.write("test-electron suite: 1 passed, 0 failed\n");
} catch (error) {
  process.stderr.write(`test-electron suite: failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  child.kill("SIGTERM");
  rmSync(userData, { recursive: true, force: true });
}
