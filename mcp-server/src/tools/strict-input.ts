import { quoteInput } from "@custody/shared";
import { z } from "zod";

/**
 * A tool's input object (or a prompt's arguments): its fields and no other. A misspelt key (`max_fee`, `confirmationToken`)
 * is refused with an error naming it and the tool's fields, never dropped without a word.
 * JSON Schema: `additionalProperties: false`.
 */
export function strictInput<Shape extends z.ZodRawShape>(tool: string, shape: Shape): z.ZodObject<Shape, z.core.$strict> {
  const fields = Object.keys(shape);
  const takes = fields.length === 0 ? "no arguments" : fields.join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `${issue.keys.map((key) => quoteInput(key)).join(", ")}: unknown field of ${tool}, which takes ${takes}` : undefined,
  });
}
