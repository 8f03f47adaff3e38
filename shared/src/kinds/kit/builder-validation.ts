import type { z } from "zod";
import { InvalidInputError } from "../../client/errors.js";
import type { FieldIssue } from "../../schemas/field-issues.js";
import { fieldIssues } from "../../schemas/field-issues.js";
import { lengthIssue } from "../../schemas/input-limits.js";

export type BaseUnitsRule = "positive" | "non-negative";

/** The issue with a base-unit amount given to a builder, if any: it must be a bigint obeying the rule. */
export function amountIssue(field: string, value: unknown, rule: BaseUnitsRule): FieldIssue | undefined {
  if (typeof value !== "bigint") {
    return { path: field, message: `must be a bigint of base units (for example 1500000000n), got ${typeof value}` };
  }
  if (rule === "positive" && value <= 0n) return { path: field, message: `must be a positive whole number of base units, got ${value}` };
  if (value < 0n) return { path: field, message: `must be a non-negative whole number of base units, got ${value}` };
  return undefined;
}

/**
 * The issue with a text field that must match a format, if any. A text longer than `maxLength`
 * is refused for its length before the format is looked at.
 */
export function formatIssue(
  field: string,
  value: unknown,
  pattern: RegExp | ((text: string) => boolean),
  rule: string,
  maxLength: number,
): FieldIssue | undefined {
  const tooLong = lengthIssue(field, value, maxLength);
  if (tooLong) return tooLong;
  if (typeof value === "string" && (typeof pattern === "function" ? pattern(value) : pattern.test(value))) return undefined;
  return { path: field, message: rule };
}

export function throwIfIssues(subject: string, issues: readonly (FieldIssue | undefined)[]): void {
  const found = issues.filter((issue): issue is FieldIssue => issue !== undefined);
  if (found.length > 0) throw new InvalidInputError(subject, found);
}

/** Returns the body unchanged once its schema accepts it, so a builder never emits an invalid body. */
export function checkedBody<S extends z.ZodType>(subject: string, schema: S, body: z.output<S>): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new InvalidInputError(subject, fieldIssues(parsed.error));
  return body;
}
