#!/usr/bin/env node
// The end-to-end test in real VS Code: installs the tools (Debian's Chromium, Node 24 and
// code-server under extension/.tools/), builds the .vsix, then runs the suite of
// extension/test/e2e with vitest. Screenshots and the code-server log go to
// extension/test-results/e2e/; with CUSTODY_UPDATE_WALKTHROUGH=1, a passing run's pictures are
// copied from there into extension/media/walkthrough/ (walkthrough-media.mjs), so a test run leaves
// the tracked images alone. Needs the MCP server's bundle (pnpm run build).
//   node extension/scripts/e2e.mjs
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packageExtension } from "./package.mjs";
import { setupE2e } from "./setup-e2e.mjs";
import { copyWalkthroughMedia } from "./walkthrough-media.mjs";

const extensionDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = resolve(extensionDir, "..");

const tools = setupE2e();
const resultsDir = join(extensionDir, "test-results", "e2e");
// With the MCP server's bundle (pnpm run build makes it): the suite starts the server the installed .vsix provides.
const vsix = await packageExtension();
const result = spawnSync(
  process.execPath,
  [join(repoRoot, "node_modules", "vitest", "vitest.mjs"), "run", "--config", join(extensionDir, "test", "e2e", "vitest.config.ts")],
  {
    cwd: repoRoot,
    stdio: "inherit",
    env: {
      ...process.env,
      CUSTODY_E2E_NODE: tools.node,
      CUSTODY_E2E_CODE_SERVER: tools.codeServerEntry,
      CUSTODY_E2E_CHROMIUM: tools.chromium,
      CUSTODY_E2E_VSIX: vsix,
      CUSTODY_E2E_RESULTS: resultsDir,
    },
  },
);
process.exitCode = result.status ?? 1;
// The walkthrough shows what a passing run saw, taken on request: every run's pixels differ a little.
if (result.status === 0 && process.env.CUSTODY_UPDATE_WALKTHROUGH === "1") copyWalkthroughMedia(resultsDir);
