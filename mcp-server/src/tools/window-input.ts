import { boundedText, INPUT_LIMITS, Timestamp, timestampToDate, type TimeWindow } from "@custody/shared";

const moment = () => boundedText(INPUT_LIMITS.timestamp).pipe(Timestamp).optional();

/** `since` and `until` of a read over time, ISO 8601 (UTC when no offset is written); until defaults to now. */
export const WindowInput = {
  since: moment(),
  until: moment(),
};

/**
 * The window the arguments name: `until` defaults to `now`, `since` to `defaultSpanMs` before
 * `until` (null: no start); a window that ends before it starts is refused naming both fields.
 */
export function windowOf(args: { since?: string | undefined; until?: string | undefined }, now: Date, defaultSpanMs: number | null): TimeWindow {
  const until = args.until === undefined ? now : timestampToDate(args.until);
  const since = args.since !== undefined ? timestampToDate(args.since) : defaultSpanMs === null ? new Date(0) : new Date(until.getTime() - defaultSpanMs);
  if (since > until) throw new Error(`since (${since.toISOString()}) must not be after until (${until.toISOString()})`);
  return { since, until };
}
