import { fieldIssues, ROOT_PATH } from "@custody/shared";
import type { z } from "zod";

const PATH_PART = /([^.[\]]+)|\[(\d+)\]/g;

/** True when the value has no field at the issue's path although the object that should hold it is there. */
function isMissing(input: unknown, path: string): boolean {
  let value = input;
  const parts = [...path.matchAll(PATH_PART)].map((match) => match[2] ?? match[1] ?? "");
  for (const [index, part] of parts.entries()) {
    if (value === null || typeof value !== "object") return false;
    const next: unknown = (value as Record<string, unknown>)[part];
    if (index === parts.length - 1) return next === undefined;
    value = next;
  }
  return false;
}

/** A missing field says "required" first, keeping the rule when the schema gave one. */
function requiredMessage(message: string): string {
  if (message.startsWith("required")) return message;
  if (message.startsWith("Invalid input")) return "required";
  return `required: ${message.replace(/^must be /, "")}`;
}

/**
 * `field.path: message` for each failing field, the field named from where the value came
 * (`root`, or the body when root is ""), one message per field (its first rule broken), and
 * "required" for a field that is absent. `input` is the value parsed, to tell an absent field.
 * Shared's fieldIssues also gives, for a union no option matched, the issues of the option that
 * got furthest (e.g. `coin_fields.payee` of a SETPAYEE), not just the list of options.
 */
export function describeIssues(error: z.ZodError, root: string, input?: unknown): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const { path, message } of fieldIssues(error)) {
    if (seen.has(path)) continue;
    seen.add(path);
    const text = path !== ROOT_PATH && input !== undefined && isMissing(input, path) ? requiredMessage(message) : message;
    if (path === ROOT_PATH) lines.push(`${root === "" ? "body" : root}: ${text}`);
    else lines.push(`${root === "" || path.startsWith("[") ? `${root}${path}` : `${root}.${path}`}: ${text}`);
  }
  return lines.join("; ");
}
