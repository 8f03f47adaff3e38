import { defineConfig } from "vitest/config";

// The end-to-end suite: real VS Code (code-server) in Debian's Chromium. Run it through
// extension/scripts/e2e.mjs, which installs the tools, builds the .vsix and passes their paths.
export default defineConfig({
  resolve: { conditions: ["@custody/source"] },
  ssr: { resolve: { conditions: ["@custody/source"] } },
  test: {
    root: new URL("../../..", import.meta.url).pathname,
    include: ["extension/test/e2e/**/*.e2e.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    reporters: ["default", ["json", { outputFile: "test-results/vitest-e2e.json" }]],
  },
});
