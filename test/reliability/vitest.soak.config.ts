import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `pnpm test:soak` (vitest run --config test/reliability/vitest.soak.config.ts): the reliability
// suite at soak size (1,000 confirmed writes under faults, 300 fuzz calls per tool, 5 crashes),
// one file at a time. The same files run at quick size in the normal test command.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  resolve: { conditions: ["@custody/source"] },
  ssr: { resolve: { conditions: ["@custody/source"] } },
  test: {
    include: ["test/reliability/**/*.test.ts"],
    env: { CUSTODY_SOAK: "1" },
    fileParallelism: false,
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
  },
});
