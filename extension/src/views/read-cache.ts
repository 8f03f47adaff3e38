import type { Account, Currency, CustodyClient, SolanaStake } from "@custody/shared";

/** The most accounts one view lists: 50 pages of 200. */
const ACCOUNT_PAGE_SIZE = 200;
const ACCOUNT_MAX_PAGES = 50;

/**
 * Reads shared by the nodes of one refresh of a view: each is fetched once, then reused until
 * the view refreshes and builds a new cache. A failed read is not kept.
 */
export class ReadCache {
  readonly #entries = new Map<string, Promise<unknown>>();

  constructor(readonly client: CustodyClient) {}

  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const cached = this.#entries.get(key);
    if (cached) return cached as Promise<T>;
    const pending = read();
    this.#entries.set(key, pending);
    pending.catch(() => this.#entries.delete(key));
    return pending;
  }

  accounts(): Promise<Account[]> {
    return this.#once("accounts", () => this.client.listAllAccounts({ pageSize: ACCOUNT_PAGE_SIZE, maxPages: ACCOUNT_MAX_PAGES }));
  }

  async account(id: number): Promise<Account> {
    const listed = (await this.accounts()).find((account) => account.id === id);
    return listed ?? this.#once(`account:${id}`, () => this.client.getAccount(id));
  }

  currency(name: string): Promise<Currency> {
    return this.#once(`currency:${name}`, () => this.client.getCurrency(name));
  }

  solanaStakes(accountId: number): Promise<SolanaStake[]> {
    return this.#once(`solana-stakes:${accountId}`, () => this.client.listSolanaStakes(accountId));
  }
}
