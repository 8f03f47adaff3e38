/** Something that holds work under way and can say when it has none left. */
export interface Drainable {
  /** How many items are still under way. */
  readonly pending: number;
  /** Resolves once nothing is under way. */
  idle(): Promise<void>;
}

/** Waits until every part is idle or the grace period ends; resolves with whether all are idle. */
export async function settle(parts: readonly Drainable[], graceMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  try {
    await Promise.race([Promise.all(parts.map((part) => part.idle())), graceOver]);
  } finally {
    clearTimeout(timer);
  }
  return parts.every((part) => part.pending === 0);
}

/** How long a shutdown waits for the requests under way (a write's POST, its look-up, its audit lines). */
export const SHUTDOWN_GRACE_MS = 30_000;
