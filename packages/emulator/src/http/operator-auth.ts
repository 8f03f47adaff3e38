import type { IncomingHttpHeaders } from "node:http";
import { UNKNOWN_OPERATOR_ERROR_NAME } from "@custody/shared";
import { findModuleUser, findWorkspaceUser, type Reader } from "../domain/lookups.js";
import type { UserRow } from "../store/state-types.js";
import { HttpError } from "./http-error.js";

export const OPERATOR_HEADER = "x-vendor-api-user";

/** The operator name the call carries, or undefined. */
export function headerOperator(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers[OPERATOR_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function unknownOperator(message: string): HttpError {
  return new HttpError(400, UNKNOWN_OPERATOR_ERROR_NAME, message);
}

/** The header must be present (module endpoints that create the operator it names). */
export function requireHeader(headers: IncomingHttpHeaders): string {
  const name = headerOperator(headers);
  if (name === undefined) throw unknownOperator("X-Vendor-API-User: the header is required on every call and must name the operator");
  return name;
}

/** The header must name an operator the module knows (created with POST /api_users). */
export function requireKnownOperator(reader: Reader, headers: IncomingHttpHeaders): string {
  const name = requireHeader(headers);
  if (!findModuleUser(reader, name)) {
    throw unknownOperator(`X-Vendor-API-User: operator ${JSON.stringify(name)} is not known to the module; create it with POST /api_users and register it`);
  }
  return name;
}

const REFUSALS: Record<string, [string, string]> = {
  PENDING_APPROVAL: ["OperatorPendingApproval", "is registered but not yet approved by the workspace administrators (Admin rule)"],
  SUSPENDED: ["OperatorSuspended", "is suspended"],
  REVOKED: ["OperatorRevoked", "is revoked"],
};

/** The header must name an operator that is ACTIVE in the workspace. */
export function requireActiveOperator(reader: Reader, headers: IncomingHttpHeaders): UserRow {
  const name = requireKnownOperator(reader, headers);
  const user = findWorkspaceUser(reader, name, true);
  if (!user) {
    throw new HttpError(
      403,
      "OperatorNotRegistered",
      `X-Vendor-API-User: operator ${JSON.stringify(name)} is known to the module but not registered in the ` +
        `workspace; an administrator must invite it, then call POST /api_users/${name}/register/{uuid}`,
    );
  }
  if (user.status === "ACTIVE") return user;
  const [errorName, reason] = REFUSALS[user.status] ?? ["OperatorNotActive", `has status ${user.status}`];
  throw new HttpError(403, errorName, `X-Vendor-API-User: operator ${JSON.stringify(name)} ${reason}; only ACTIVE operators may call the API`);
}
