/** The resources one 2025 session, or one 2026-07-28 listen stream, may be subscribed to at once. */
export const MAX_SUBSCRIPTIONS_PER_STREAM = 50;

/** A subscribed URI longer than this is refused: none of ours comes close. */
export const MAX_SUBSCRIBED_URI = 512;

/** The resources one process polls at once, whoever subscribed to them. */
export const MAX_WATCHED_RESOURCES = 1000;

/**
 * One person may hold a tenth of a server's places (at least 2), sessions as listen streams:
 * nobody signed in can fill them all.
 */
export function perPersonShare(max: number): number {
  return Math.max(2, Math.floor(max / 10));
}

/** `wanted`: the resources the session or stream would be subscribed to, beyond the limit. */
export function tooManySubscriptions(wanted: number): string {
  return (
    `Too many subscriptions: ${wanted} resources, more than the ${MAX_SUBSCRIPTIONS_PER_STREAM} one session or listen stream ` +
    "may be subscribed to at once; unsubscribe from one first, or open another"
  );
}

export function uriTooLong(length: number): string {
  return `uri: at most ${MAX_SUBSCRIBED_URI} characters, got ${length}`;
}

export function tooManyWatched(): string {
  return (
    `Too many watched resources: this server polls at most ${MAX_WATCHED_RESOURCES} accounts and ` +
    "transactions at once for its subscribers; try again when some subscriptions have ended"
  );
}
