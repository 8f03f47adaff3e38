import { badRequest } from "./domain-error.js";

/** The largest id a JSON number carries exactly: 2^53-1. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/**
 * An id given in a path or a query: digits only, a positive integer up to 2^53-1, else 400
 * naming the parameter and the rule. An id that passes but names nothing is the caller's 404.
 */
export function positiveId(raw: string, parameter: string): number {
  const value = /^[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= MAX_ID) || !/^[1-9]/.test(raw)) {
    throw badRequest(`${parameter}: must be a positive integer from 1 to ${MAX_ID} (2^53-1) without leading zeros, got ${JSON.stringify(raw)}`, "InvalidId");
  }
  return value;
}
