import { badRequest } from "../domain-error.js";

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * Fields of a transaction request body under a name the service does not take, refused (400)
 * before the schema, with what to send instead: `coin_fields.smart_contract` (renamed in the
 * Jul 2023 release) and, on creation, `notes` (requests take `note`; dropping it silently would
 * lose the label the caller looks the transaction up by).
 */
export function refuseMisnamedFields(body: unknown, creating: boolean): void {
  const fields = record(body);
  if (!fields) return;
  if (creating && "notes" in fields) throw badRequest("notes: requests take note (singular), an object { title, content }");
  const coinFields = record(fields.coin_fields);
  if (coinFields && "smart_contract" in coinFields) {
    throw badRequest("coin_fields.smart_contract: renamed coin_fields.contract_interaction in July 2023; send { contract_interaction: { contract_data } }");
  }
}
