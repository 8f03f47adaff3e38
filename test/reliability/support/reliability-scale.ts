/** `pnpm test:soak` sets CUSTODY_SOAK=1 (test/reliability/vitest.soak.config.ts): the long runs. */
export const SOAK = process.env.CUSTODY_SOAK === "1";

export const SCALE = SOAK
  ? { mode: "soak", confirmedWrites: 1000, writers: 4, fuzzRunsPerTool: 300, crashRounds: 5, crashWriters: 8 }
  : { mode: "quick", confirmedWrites: 50, writers: 3, fuzzRunsPerTool: 25, crashRounds: 1, crashWriters: 6 };

/** A per-test timeout that fits the mode. */
export const TEST_TIMEOUT_MS = SOAK ? 3_600_000 : 60_000;
