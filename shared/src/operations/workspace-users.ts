import type { CustodyClient } from "../client/custody-client.js";

/** Usernames by user id, per client: an id never changes, so the users are listed again only for an id not seen yet. */
const usernames = new WeakMap<CustodyClient, Map<number, string>>();

async function listed(client: CustodyClient, signal?: AbortSignal): Promise<Map<number, string>> {
  const users = await client.listAllUsers({ signal, pageSize: 1000, maxPages: 10 });
  const names = new Map(users.map((user) => [user.id, user.username]));
  usernames.set(client, names);
  return names;
}

/**
 * The usernames of these user ids (a transaction's `created_by`), listing the users once per
 * client and again only when an id is not known yet; an id the listing does not show is left out.
 */
export async function usernamesOf(client: CustodyClient, ids: readonly number[], signal?: AbortSignal): Promise<Map<number, string>> {
  const known = usernames.get(client);
  const names = known !== undefined && ids.every((id) => known.has(id)) ? known : await listed(client, signal);
  return new Map(ids.flatMap((id) => (names.has(id) ? [[id, names.get(id) as string] as const] : [])));
}
