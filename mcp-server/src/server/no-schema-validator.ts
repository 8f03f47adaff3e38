import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/server";

/**
 * The validator given to every session: none. The SDK builds its default (Ajv, about 280 KB) only
 * when none is given, and bundle-options.mjs leaves it out of the bundle. This server checks the
 * one answer of its confirmation form itself (consentFrom in server/elicitation.ts; the SDK's
 * legacy shim passes a 2025 answer through unvalidated) and validates nothing else by JSON Schema:
 * anything that would need it fails loudly.
 */
export const noSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    throw new Error(
      "custody-mcp validates no JSON Schema (asked for " +
        `${JSON.stringify(schema).slice(0, 80)}): its inputs are checked by zod, its form's ` +
        "answer by consentFrom",
    );
  },
};
