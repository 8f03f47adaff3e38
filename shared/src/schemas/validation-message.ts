import type { z } from "zod";
import { describeFieldIssues, fieldIssues, ROOT_PATH, type FieldIssue } from "./field-issues.js";

function underPrefix(issue: FieldIssue, prefix: string | undefined): FieldIssue {
  if (prefix === undefined) return issue;
  if (issue.path === ROOT_PATH) return { ...issue, path: prefix };
  return { ...issue, path: `${prefix}${issue.path.startsWith("[") ? "" : "."}${issue.path}` };
}

/** One line per problem, each naming the field by its path (`amount.value: must be ...`), under an optional prefix. */
export function describeIssues(error: z.ZodError, prefix?: string): string[] {
  return fieldIssues(error)
    .map((issue) => underPrefix(issue, prefix))
    .map((issue) => `${issue.path}: ${issue.message}`);
}

/** The problems of a failed parse as one line, for error messages. */
export function formatIssues(error: z.ZodError, prefix?: string): string {
  return describeFieldIssues(fieldIssues(error).map((issue) => underPrefix(issue, prefix)));
}
