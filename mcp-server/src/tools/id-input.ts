import { z } from "zod";

const POSITIVE_ID_RULE = "must be a positive whole number";

/**
 * A transaction or request id: listed as a number above 0, refused unless a positive whole number,
 * under one rule whatever is wrong with it (0, -1, 16.5).
 */
export function positiveId() {
  return z
    .number()
    .positive({ error: (issue) => `${POSITIVE_ID_RULE}, got ${String(issue.input)}` })
    .refine((value) => value <= 0 || Number.isSafeInteger(value), { error: (issue) => `${POSITIVE_ID_RULE}, got ${String(issue.input)}` });
}
