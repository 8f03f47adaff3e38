import { z } from "zod";

const POSITIVE_ID_RULE = "must be a positive whole number";

/**
 * A transaction or request id: listed as a number above 0, refused unless a positive whole number,
 * under one rule whatever is wrong with it (0, -1, 16.5); a whole number beyond the largest a JSON number carries
 * exactly (1e300) under that rule.
 */
export function positiveId() {
  return z
    .number()
    .positive({ error: (issue) => `${POSITIVE_ID_RULE}, got ${String(issue.input)}` })
    .refine((value) => value <= 0 || Number.isInteger(value), { error: (issue) => `${POSITIVE_ID_RULE}, got ${String(issue.input)}`, abort: true })
    .refine((value) => value <= Number.MAX_SAFE_INTEGER, {
      error: (issue) => `must be at most ${Number.MAX_SAFE_INTEGER} (the largest id a JSON number carries exactly), got ${String(issue.input)}`,
    });
}
