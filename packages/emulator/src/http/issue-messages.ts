import { fieldIssues, ROOT_PATH } from "@custody/shared";
import type { z } from "zod";

/**
 * `field.path: message` for each issue, the field named from where the value came (`root`, or the
 * body when root is ""). Shared's fieldIssues also gives, for a union no option matched, the issues
 * of the option that got furthest (e.g. `coin_fields.payee` of a SETPAYEE), not just the list of options.
 */
export function describeIssues(error: z.ZodError, root: string): string {
  return fieldIssues(error)
    .map(({ path, message }) => {
      if (path === ROOT_PATH) return `${root === "" ? "body" : root}: ${message}`;
      const field = root === "" || path.startsWith("[") ? `${root}${path}` : `${root}.${path}`;
      return `${field}: ${message}`;
    })
    .join("; ");
}
