import type { z } from "zod";

/** One failing field: its path in the value (e.g. `edges[0].node.amount`) and the rule it broke. */
export interface FieldIssue {
  path: string;
  message: string;
}

export const ROOT_PATH = "(root)";

export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? ROOT_PATH : out;
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message }));
}

export function describeFieldIssues(issues: readonly FieldIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
}
