#!/usr/bin/env node
// `pnpm test:runtimes`: the suites that show the code runs the same on every supported Node
// (shared's unit tests, the contract tests against the emulator, the guard stores on a real
// PostgreSQL, signing in through a real authorization server, whose oidc-provider supports 22 and
// later) under Node 22 and Node 24, with Node from the npm package `node` where the machine
// lacks it: 24 is the end-to-end test's own (extension/.tools/), 22 goes to .tools/ (git-ignored).
// The test command's main run is under the machine's Node (20). Each run leaves
// test-results/vitest-node<major>.json for the CI summary.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureNode, NODE_VERSION, nodePrefix } from "../../extension/scripts/setup-e2e.mjs";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const NODE_22 = "22.23.3";
const RUNTIMES = [
  { version: NODE_22, prefix: join(root, ".tools", `node-${NODE_22}`) },
  { version: NODE_VERSION, prefix: nodePrefix },
];
const SUITES = ["shared/test", "test/contract", "test/guard-store", "test/auth"];

let failed = false;
for (const runtime of RUNTIMES) {
  const node = join(ensureNode(runtime.version, runtime.prefix), "bin", "node");
  process.stderr.write(`[runtimes] Node ${runtime.version}: vitest run ${SUITES.join(" ")}\n`);
  const run = spawnSync(
    node,
    [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", join(root, "test", "runtimes", "vitest.config.ts"), ...SUITES],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  if (run.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
