import type { CustodyClient } from "../../client/custody-client.js";
import type { CallOptions } from "../../client/client-options.js";
import { PageLimitError } from "../../client/errors.js";
import { whileNotAborted } from "../../client/while-not-aborted.js";
import type { Account } from "../../schemas/account.js";

/** A complete listing is re-read at most this often when names are resolved through hints. */
export const DEFAULT_DIRECTORY_MAX_AGE_MS = 60_000;
/** Page size of the complete listing (the most the API gives). */
const LISTING_PAGE_SIZE = 1000;
const LISTING_MAX_PAGES = 1000;
/** Pages of a listing read at once, once the first has told how many there are. */
const CONCURRENT_PAGES = 4;
/** A listing this far into its max age is read again in the background when its hints are used, so a busy process does not wait for one. */
const REFRESH_AHEAD_SHARE = 0.75;
/** A check of the account count vouches for it this long: resolutions within it make no request of their own for it. */
export const DEFAULT_COUNT_TRUST_MS = 1_000;

/**
 * Every account, in pages of 1000: the first page tells how many there are, and the pages it
 * announces are read a few at a time; past them (accounts created meanwhile), on while the last
 * page read says there is more.
 */
async function listEveryAccount(client: CustodyClient, options?: CallOptions): Promise<Account[]> {
  const read = (page: number) => client.listAccounts({ page, page_size: LISTING_PAGE_SIZE }, options);
  const pages = [await read(1)];
  const announced = Math.ceil((pages[0]?.page_info.count ?? 0) / LISTING_PAGE_SIZE);
  for (let next = 2; pages.at(-1)?.page_info.has_next_page === true;) {
    if (next > LISTING_MAX_PAGES) throw new PageLimitError("/accounts", LISTING_MAX_PAGES);
    const last = Math.min(Math.max(next, announced), next + CONCURRENT_PAGES - 1, LISTING_MAX_PAGES);
    pages.push(...(await Promise.all(Array.from({ length: last - next + 1 }, (_, index) => read(next + index)))));
    next = last + 1;
  }
  return pages.flatMap((page) => page.edges.map((edge) => edge.node));
}

export interface AccountDirectoryOptions {
  /** How long a listing may serve as hints (default 60 s); 0 disables hints. */
  maxAgeMs?: number;
  /**
   * How long a listing, or a check that the workspace still holds its number of accounts, vouches
   * for that number (default 1 s); 0 checks it at every resolution.
   */
  countTrustMs?: number;
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
  /** When the workspace was last seen holding `count` accounts: the listing's start, or the request of a check that found it. */
  countSeenAt: number;
}

/** What a listing younger than its max age tells a resolution: never an answer alone (see resolveAccount). */
export interface NameHints {
  /** The ids the listing gave this exact name. */
  ids(name: string): readonly number[];
  /**
   * Whether the workspace still holds as many accounts as the listing did: a page of one account
   * read now, or no request when the listing or such a check is younger than countTrustMs.
   */
  countHolds(options?: CallOptions): Promise<boolean>;
}

/**
 * What a client last saw of the workspace's account names: name to ids, from a complete
 * listing. It is only ever a hint (see resolveAccount): a name is resolved by fetching the
 * hinted account by id and checking it, and the listing is read again on any doubt.
 */
export class AccountDirectory {
  readonly maxAgeMs: number;
  readonly countTrustMs: number;
  readonly #now: () => number;
  #listing: Listing | undefined;
  /** The listing under way, if any. */
  #reading: Promise<Account[]> | undefined;

  constructor(
    private readonly client: CustodyClient,
    options: AccountDirectoryOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_DIRECTORY_MAX_AGE_MS;
    this.countTrustMs = options.countTrustMs ?? DEFAULT_COUNT_TRUST_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The hints of a listing younger than maxAgeMs, or undefined when there is none. Hints past
   * three quarters of their max age start a new listing in the background (used by later resolutions).
   */
  hints(): NameHints | undefined {
    const listing = this.#listing;
    const age = listing === undefined ? Number.POSITIVE_INFINITY : this.#now() - listing.startedAt;
    if (!listing || age >= this.maxAgeMs) return undefined;
    if (age >= this.maxAgeMs * REFRESH_AHEAD_SHARE && this.#reading === undefined) this.refresh().catch(() => undefined);
    return { ids: (name) => listing.ids.get(name) ?? [], countHolds: (options) => this.#countHolds(listing, options) };
  }

  async #countHolds(listing: Listing, options?: CallOptions): Promise<boolean> {
    const askedAt = this.#now();
    if (askedAt - listing.countSeenAt < this.countTrustMs) return true;
    const page = await this.client.listAccounts({ page: 1, page_size: 1 }, options);
    if (page.page_info.count !== listing.count) return false;
    listing.countSeenAt = Math.max(listing.countSeenAt, askedAt);
    return true;
  }

  /**
   * A listing for a resolution to decide from: the one under way if there is one (started by
   * another resolution or a warm-up), else a new one; neither is tied to this caller's signal
   * (the others wait for the same listing), which only stops this caller's wait. A commit, which
   * must decide from a listing started after it, calls refresh().
   */
  current(options?: CallOptions): Promise<Account[]> {
    const untied = options?.timeoutMs === undefined ? undefined : { timeoutMs: options.timeoutMs };
    return whileNotAborted(this.#reading ?? this.refresh(untied), options?.signal);
  }

  /** Lists every account (pages of 1000, a few at a time) and keeps the names as the new hints. */
  refresh(options?: CallOptions): Promise<Account[]> {
    const reading = this.#list(options).finally(() => {
      if (this.#reading === reading) this.#reading = undefined;
    });
    this.#reading = reading;
    return reading;
  }

  async #list(options?: CallOptions): Promise<Account[]> {
    const startedAt = this.#now();
    const accounts = await listEveryAccount(this.client, options);
    const ids = new Map<string, number[]>();
    for (const account of accounts) {
      const same = ids.get(account.name);
      if (same) same.push(account.id);
      else ids.set(account.name, [account.id]);
    }
    if (!this.#listing || this.#listing.startedAt <= startedAt) this.#listing = { ids, count: accounts.length, startedAt, countSeenAt: startedAt };
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
