import { performance } from "node:perf_hooks";
/** Nearest-rank percentile (p from 0 to 100) of the samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Milliseconds rounded to a tenth, for reports. */
export function roundMs(value: number): number {
  return Math.round(value * 10) / 10;
}

/** measured / baseline, to two decimals; null when the baseline is missing or zero. */
export function ratio(measured: number, baseline: number): number | null {
  if (!Number.isFinite(measured) || !Number.isFinite(baseline) || baseline === 0) return null;
  return Math.round((measured / baseline) * 100) / 100;
}

/** Milliseconds one run takes, start to settled. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}
