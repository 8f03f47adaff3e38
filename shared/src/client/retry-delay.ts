/** The ceiling of the wait before retry number `retryIndex` (0 for the first retry): base * 2^index, capped. */
export function backoffCeilingMs(retryIndex: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** retryIndex);
}

/** Exponential backoff with full jitter: a uniform wait in [0, ceiling). */
export function backoffDelayMs(retryIndex: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = backoffCeilingMs(retryIndex, baseDelayMs, maxDelayMs);
  const draw = Math.min(Math.max(random(), 0), 1);
  return Math.floor(draw * ceiling);
}

/** Retry-After in milliseconds: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(header: string | null, nowMs: number = Date.now()): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** The wait before the next retry: the service's Retry-After when given, else the backoff; both capped. */
export function retryWaitMs(
  retryIndex: number,
  retryAfterMs: number | null,
  policy: { baseDelayMs: number; maxDelayMs: number; random: () => number },
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxDelayMs);
  return backoffDelayMs(retryIndex, policy.baseDelayMs, policy.maxDelayMs, policy.random);
}
