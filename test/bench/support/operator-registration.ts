import type { Agent } from "node:http";
import { jsonCall } from "./json-http.js";

/** Registers an API operator through the module's flow, approved by two administrators. */
export async function registerOperator(agent: Agent, baseUrl: string, controlUrl: string, name: string): Promise<void> {
  const as = { "x-vendor-api-user": name };
  const created = await jsonCall<{ device_id?: string; DEVICE_ID?: string }>(agent, "POST", `${baseUrl}/api_users`, { name }, as);
  const invitation = await jsonCall<{ uuid: string }>(agent, "POST", `${controlUrl}/invitations`, {
    username: name,
    device_id: created.device_id ?? created.DEVICE_ID,
  });
  await jsonCall(agent, "POST", `${baseUrl}/api_users/${name}/register/${invitation.uuid}`, { name }, as);
  for (const admin of ["alice.admin", "bob.admin"]) await jsonCall(agent, "POST", `${controlUrl}/users/${name}/approve`, { admin });
}
