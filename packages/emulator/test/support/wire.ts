import type { z } from "zod";
import type { HttpAnswer } from "./http-client.js";

/** Decodes an answer with a shared schema, failing the test with the body when it does not fit. */
export function decode<S extends z.ZodType>(schema: S, answer: HttpAnswer): z.output<S> {
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) throw new Error(`answer ${answer.status} does not fit the schema: ${parsed.error.message}\n${answer.text}`);
  return parsed.data;
}
