import type { CustodyClient } from "../client/custody-client.js";
import type { CallOptions } from "../client/client-options.js";
import type { Account } from "../schemas/account.js";

/** A complete listing is re-read at most this often when names are resolved through hints. */
export const DEFAULT_DIRECTORY_MAX_AGE_MS = 60_000;
/** Page size of the complete listing (the most the API gives). */
const LISTING_PAGE_SIZE = 1000;
const LISTING_MAX_PAGES = 1000;

export interface AccountDirectoryOptions {
  /** How long a listing may serve as hints (default 60 s); 0 disables hints. */
  maxAgeMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Listing {
  /** Account ids by exact name, as the complete listing gave them. */
  ids: Map<string, number[]>;
  /** How many accounts the listing held. */
  count: number;
  /** When the listing was started (a listing started later replaces one started earlier). */
  startedAt: number;
}

/**
 * What a client last saw of the workspace's account names: name to ids, from a complete
 * listing. It is only ever a hint (see resolveAccount): a name is resolved by fetching the
 * hinted account by id and checking it, and the listing is read again on any doubt.
 */
export class AccountDirectory {
  readonly maxAgeMs: number;
  readonly #now: () => number;
  #listing: Listing | undefined;

  constructor(
    private readonly client: CustodyClient,
    options: AccountDirectoryOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_DIRECTORY_MAX_AGE_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The hints of a listing younger than maxAgeMs, or undefined when there is none. */
  hints(): { ids: (name: string) => readonly number[]; count: number } | undefined {
    const listing = this.#listing;
    if (!listing || this.#now() - listing.startedAt >= this.maxAgeMs) return undefined;
    return { ids: (name) => listing.ids.get(name) ?? [], count: listing.count };
  }

  /** Lists every account (pages of 1000) and keeps the names as the new hints. */
  async refresh(options?: CallOptions): Promise<Account[]> {
    const startedAt = this.#now();
    const accounts = await this.client.listAllAccounts({ ...options, pageSize: LISTING_PAGE_SIZE, maxPages: LISTING_MAX_PAGES });
    const ids = new Map<string, number[]>();
    for (const account of accounts) {
      const same = ids.get(account.name);
      if (same) same.push(account.id);
      else ids.set(account.name, [account.id]);
    }
    if (!this.#listing || this.#listing.startedAt <= startedAt) this.#listing = { ids, count: accounts.length, startedAt };
    return accounts;
  }

  /** Forgets the hints: the next resolution by name lists every account. */
  invalidate(): void {
    this.#listing = undefined;
  }
}

const directories = new WeakMap<CustodyClient, AccountDirectory>();

/** The directory of this client (one per client, created on first use with these options). */
export function accountDirectoryOf(client: CustodyClient, options?: AccountDirectoryOptions): AccountDirectory {
  let directory = directories.get(client);
  if (!directory) {
    directory = new AccountDirectory(client, options);
    directories.set(client, directory);
  }
  return directory;
}
