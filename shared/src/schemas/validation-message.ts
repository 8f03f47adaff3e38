import type { z } from "zod";

function pathText(path: readonly PropertyKey[], prefix: string | undefined): string {
  const parts = path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
  const joined = `${prefix ?? ""}${parts}`.replace(/^\./, "");
  return joined === "" ? "(value)" : joined;
}

/** One line per problem, each naming the field by its path: `amount.value: must be ...`. */
export function describeIssues(error: z.ZodError, prefix?: string): string[] {
  return error.issues.map((issue) => `${pathText(issue.path, prefix)}: ${issue.message}`);
}

/** The problems of a failed parse as one sentence, for error messages. */
export function formatIssues(error: z.ZodError, prefix?: string): string {
  return describeIssues(error, prefix).join("; ");
}
