import type { z } from "zod";

/** One failing field: its path in the value (e.g. `edges[0].node.amount`) and the rule it broke. */
export interface FieldIssue {
  path: string;
  message: string;
}

export const ROOT_PATH = "(root)";

type Issue = z.core.$ZodIssue;

export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? ROOT_PATH : out;
}

function depth(issues: readonly Issue[]): number {
  return Math.max(0, ...issues.map((issue) => issue.path.length));
}

/**
 * A union's issue, then the issues of the option that got furthest into the value (its deepest
 * failing path): "must be one of ..." alone does not say which field of a near-match is wrong.
 */
function flatten(issue: Issue, base: readonly PropertyKey[]): FieldIssue[] {
  const path = [...base, ...issue.path];
  const own = { path: formatIssuePath(path), message: issue.message };
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return [own];
  const closest = issue.errors.reduce((best, option) => (depth(option) > depth(best) ? option : best));
  if (depth(closest) === 0) {
    // The one option of the value's type (a string too long for the string option of a number or
    // a string) says what is wrong; the union's own "invalid input" does not.
    const ofType = issue.errors.filter((option) => !option.some((inner) => inner.code === "invalid_type"));
    return ofType.length === 1 ? (ofType[0] ?? []).flatMap((inner) => flatten(inner, path)) : [own];
  }
  return [own, ...closest.flatMap((inner) => flatten(inner, path))];
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) => flatten(issue, []));
}

/** The issues as one line; beyond `limit` only their count is given (every issue stays on the error). */
export function describeFieldIssues(issues: readonly FieldIssue[], limit = 10): string {
  const shown = issues.slice(0, limit).map((issue) => `${issue.path}: ${issue.message}`);
  const more = issues.length > limit ? [`and ${issues.length - limit} more`] : [];
  return [...shown, ...more].join("; ");
}
