import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

// The root configuration, with the JSON report named for the Node it runs under, so the runs of
// `pnpm test:runtimes` leave the main run's test-results/vitest.json as it was.
export default defineConfig({
  ...base,
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    ...base.test,
    reporters: ["default", ["json", { outputFile: `test-results/vitest-node${process.versions.node.split(".")[0]}.json` }]],
  },
});
