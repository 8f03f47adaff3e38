import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `pnpm bench` (vitest run --config test/bench/vitest.config.ts): one long sequential run that
// writes test/bench/results/latest.json and the tables of docs/performance.md.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  resolve: { conditions: ["@custody/source"] },
  ssr: { resolve: { conditions: ["@custody/source"] } },
  test: {
    include: ["test/bench/run-benchmarks.ts"],
    fileParallelism: false,
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    reporters: ["verbose"],
  },
});
