import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SCALE } from "./reliability-scale.js";

const RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));

/** Keeps a run's figures (inputs tried, faults injected, duplicates, losses) as test/reliability/results/<suite>-<mode>.json. */
export function recordFigures(suite: string, figures: Record<string, unknown>): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    `${RESULTS_DIR}${suite}-${SCALE.mode}.json`,
    `${JSON.stringify({ suite, mode: SCALE.mode, at: new Date().toISOString(), ...figures }, null, 2)}\n`,
  );
}
