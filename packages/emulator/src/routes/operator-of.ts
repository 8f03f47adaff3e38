import type { ApiRequest } from "../http/api-request.js";
import type { UserRow } from "../store/state-types.js";

/** The ACTIVE operator of a route that requires one (the listener has checked it). */
export function operatorOf(request: ApiRequest): UserRow {
  if (!request.operator) throw new Error(`route ${request.method} ${request.path} needs an operator but has none`);
  return request.operator;
}
