// The SDK's Ajv validator, imported only when a confirmation form is first sent (a chunk of the
// bundle of its own: most sessions never send one).
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
