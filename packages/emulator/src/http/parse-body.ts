import type { z } from "zod";
import { badRequest } from "../domain/domain-error.js";
import { describeIssues } from "./issue-messages.js";

/** The parsed body, or a 400 naming each field and the rule it breaks. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined) throw badRequest("body: a JSON object is required");
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest(describeIssues(result.error, "", body));
  return result.data;
}
