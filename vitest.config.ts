import { defineConfig } from "vitest/config";

// Tests import workspace packages from their TypeScript sources (the "@custody/source"
// export condition), so a test run never depends on a stale dist/.
export default defineConfig({
  resolve: {
    conditions: ["@custody/source"],
  },
  ssr: {
    resolve: {
      conditions: ["@custody/source"],
    },
  },
  test: {
    include: [
      "shared/test/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "mcp-server/test/**/*.test.ts",
      "extension/test/unit/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
