import { sanitizeUntrustedText, usernamesOf, type CustodyClient } from "@custody/shared";
import { z } from "zod";

/** Who created a transaction (or a request): the user's id, and its username sanitised (null when the users list does not show it). */
export const CreatorView = z.object({ id: z.number(), username: z.string().nullable() });
export type CreatorView = z.infer<typeof CreatorView>;

/** Usernames by user id, as creatorView reads them. */
export type Usernames = ReadonlyMap<number, string>;

export function creatorView(id: number, usernames: Usernames): CreatorView {
  const username = usernames.get(id);
  return { id, username: username === undefined ? null : sanitizeUntrustedText(username) };
}

/**
 * The usernames of these creators from the client's users listing (listed once per client, see
 * usernamesOf), never one GET per transaction. A listing that fails leaves them unnamed (null):
 * the transactions are still answered.
 */
export async function creatorNames(client: CustodyClient, ids: readonly number[], signal?: AbortSignal): Promise<Usernames> {
  try {
    return await usernamesOf(client, [...new Set(ids)], signal);
  } catch (error) {
    if (signal?.aborted === true) throw error;
    return new Map();
  }
}
