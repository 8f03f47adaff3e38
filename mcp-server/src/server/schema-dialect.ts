import type { z } from "zod";

/**
 * The tool schema without the `$schema` key zod writes into every JSON Schema it emits (twice
 * per tool, 52 bytes each: a tenth of the tools/list budget). Our schemas use only keywords that
 * mean the same in draft-07 and in 2020-12, MCP's default dialect when `$schema` is absent.
 */
export function withoutDialectKey<T extends z.ZodObject>(schema: T): T {
  return schema.meta({ $schema: undefined });
}
