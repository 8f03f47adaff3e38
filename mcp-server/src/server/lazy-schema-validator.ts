import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/server";

let loading: Promise<jsonSchemaValidator> | undefined;
let loaded: jsonSchemaValidator | undefined;

/**
 * Loads the SDK's JSON Schema validator (Ajv, about 280 KB with its dependencies): call it before
 * sending a form. A start does not load it (build.mjs leaves the SDK's default out of the start
 * files), since this server needs it only to check a person's answer to a confirmation form.
 */
export function loadSchemaValidator(): Promise<jsonSchemaValidator> {
  loading ??= import("../on-demand/form-validator.js").then(({ AjvJsonSchemaValidator }) => (loaded = new AjvJsonSchemaValidator()));
  return loading;
}

/** The validator given to every session: Ajv once loadSchemaValidator() has settled, shared by the process's sessions. */
export const lazySchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (loaded === undefined) throw new Error("the JSON Schema validator is not loaded: await loadSchemaValidator() before sending a form");
    return loaded.getValidator<T>(schema);
  },
};
