import type { CustodyClient } from "../client/custody-client.js";
import type { CallOptions } from "../client/client-options.js";
import { unlessNotFound } from "../client/unless-not-found.js";
import type { RequestStatus } from "../schemas/request-status.js";
import type { UserRecord } from "../schemas/user.js";

/** An operator as the workspace knows it: its user record (null before registration) and its latest governance request. */
export interface RegistrationStanding {
  user: UserRecord | null;
  request: RequestStatus | null;
}

/**
 * Where an operator's registration stands: its record among the workspace's users, and the
 * request its record last names (`last_request`: after registration, the Create user request under
 * the Admin rule, with its quorum and approvers).
 */
export async function registrationStanding(client: CustodyClient, name: string, options: CallOptions = {}): Promise<RegistrationStanding> {
  const users = await client.listAllUsers({ ...options, pageSize: 1000, maxPages: 10 });
  const user = users.find((candidate) => candidate.username === name) ?? null;
  if (user === null || user.last_request <= 0) return { user, request: null };
  return { user, request: (await unlessNotFound(client.getRequestStatus(user.last_request, options))) ?? null };
}
