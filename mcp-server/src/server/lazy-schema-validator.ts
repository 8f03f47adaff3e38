import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

let ajv: AjvJsonSchemaValidator | undefined;

/**
 * The SDK's JSON Schema validator (Ajv), set up on first use and shared by the process's sessions.
 * The SDK builds one per server by default: 4 to 7 ms of every start, for a validator this server
 * needs only when a person answers a confirmation form.
 */
export const lazySchemaValidator: jsonSchemaValidator = {
  getValidator(schema) {
    ajv ??= new AjvJsonSchemaValidator();
    return ajv.getValidator(schema);
  },
};
