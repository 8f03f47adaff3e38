import type { z } from "zod";

/** `field.path: message` for each issue, the field named from where the value came. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], root: string): string {
  return issues
    .map((issue) => {
      const path = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
      const field = root === "" ? path.replace(/^\./, "") : `${root}${path}`;
      return `${field === "" ? "body" : field}: ${issue.message}`;
    })
    .join("; ");
}
