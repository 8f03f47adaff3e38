import type { CustodyClient } from "../client/custody-client.js";
import { whileNotAborted } from "../client/while-not-aborted.js";

/** How long an id or a username the listing did not show is not listed again for: a deleted user stays deleted. */
const MISSING_TTL_MS = 5 * 60 * 1000;
/** At most this many missing ids and usernames remembered per client, the oldest forgotten first. */
const MISSING_MAX = 1_000;
/** One listing reads at most this many pages of 1,000 users. */
const LISTING_MAX_PAGES = 100;

/** What one client knows of the workspace's users: ids and usernames never change, and what a listing did not show, for a while. */
interface KnownUsers {
  names: Map<number, string>;
  ids: Map<string, number>;
  /** Ids and usernames (as `id:7`, `name:bob`) a listing did not show, with when it was read. */
  missing: Map<string, number>;
  /** The listing under way, which a caller awaits instead of starting another (a store's resumed look-ups ask at once). */
  listing: Promise<void> | null;
}

const known = new WeakMap<CustodyClient, KnownUsers>();

function knownFor(client: CustodyClient): KnownUsers {
  let users = known.get(client);
  if (users === undefined) {
    users = { names: new Map(), ids: new Map(), missing: new Map(), listing: null };
    known.set(client, users);
  }
  return users;
}

function missingNow(users: KnownUsers, key: string, now: number): boolean {
  const since = users.missing.get(key);
  if (since === undefined) return false;
  if (now - since < MISSING_TTL_MS && since <= now) return true;
  users.missing.delete(key);
  return false;
}

/** Lists the users once more, or waits for the listing under way; the keys asked for that it does not show are remembered as missing. */
async function list(client: CustodyClient, users: KnownUsers, asked: readonly string[], signal?: AbortSignal): Promise<void> {
  if (users.listing === null) {
    // Not tied to one caller's signal: the others wait for the same listing.
    const listing = client.listAllUsers({ pageSize: 1000, maxPages: LISTING_MAX_PAGES }).then((listed) => {
      for (const user of listed) {
        users.names.set(user.id, user.username);
        users.ids.set(user.username, user.id);
      }
    });
    users.listing = listing.finally(() => {
      users.listing = null;
    });
  }
  await whileNotAborted(users.listing, signal);
  const now = Date.now();
  for (const key of asked) {
    const shown = key.startsWith("id:") ? users.names.has(Number(key.slice(3))) : users.ids.has(key.slice(5));
    if (shown) continue;
    users.missing.delete(key);
    users.missing.set(key, now);
    if (users.missing.size > MISSING_MAX) users.missing.delete(users.missing.keys().next().value as string);
  }
}

/**
 * The usernames of these user ids (a transaction's `created_by`), listing the users once per
 * client and again only for an id neither known nor listed as missing in the last 5 minutes (a
 * deleted user's id must not make every dry run list every user); an id the listing does not
 * show is left out.
 */
export async function usernamesOf(client: CustodyClient, ids: readonly number[], signal?: AbortSignal): Promise<Map<number, string>> {
  const users = knownFor(client);
  const now = Date.now();
  const asked = ids.filter((id) => !users.names.has(id) && !missingNow(users, `id:${id}`, now)).map((id) => `id:${id}`);
  if (asked.length > 0) await list(client, users, asked, signal);
  return new Map(ids.flatMap((id) => (users.names.has(id) ? [[id, users.names.get(id) as string] as const] : [])));
}

/**
 * The user id of a username (an operator, to match a transaction's `created_by`); undefined
 * when the listing does not show it, listed again for it only after 5 minutes.
 */
export async function userIdOf(client: CustodyClient, username: string, signal?: AbortSignal): Promise<number | undefined> {
  const users = knownFor(client);
  if (!users.ids.has(username) && !missingNow(users, `name:${username}`, Date.now())) await list(client, users, [`name:${username}`], signal);
  return users.ids.get(username);
}
