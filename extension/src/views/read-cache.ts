import type { Account, Currency, CustodyClient, SolanaStake } from "@custody/shared";
import { PagedList } from "./paged-list.js";

/** Accounts are read a page of 200 at a time; a view shows what is read and offers "Load more". */
export const ACCOUNT_PAGE_SIZE = 200;

/**
 * Reads shared by the nodes of one refresh of a view: each is fetched once, then reused until
 * the view refreshes and builds a new cache. A failed read is not kept.
 */
export class ReadCache {
  readonly #entries = new Map<string, Promise<unknown>>();
  #accounts: PagedList<Account> | undefined;

  constructor(readonly client: CustodyClient) {}

  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const cached = this.#entries.get(key);
    if (cached) return cached as Promise<T>;
    const pending = read();
    this.#entries.set(key, pending);
    pending.catch(() => this.#entries.delete(key));
    return pending;
  }

  /**
   * The workspace's accounts, a page at a time, in id order: never the whole list at once, so a
   * workspace of any size shows its first page quickly. A failed page is read again next time.
   */
  accountPages(): PagedList<Account> {
    this.#accounts ??= new PagedList(async (page) => {
      const result = await this.client.listAccounts({ page, page_size: ACCOUNT_PAGE_SIZE });
      return { items: result.edges.map((edge) => edge.node), hasMore: result.page_info.has_next_page, total: result.page_info.count };
    });
    return this.#accounts;
  }

  /** An account by id: from the pages read (the first is read if none is), else fetched once by id. */
  async account(id: number): Promise<Account> {
    const listed = (await this.accountPages().first()).find((account) => account.id === id);
    return listed ?? this.#once(`account:${id}`, () => this.client.getAccount(id));
  }

  currency(name: string): Promise<Currency> {
    return this.#once(`currency:${name}`, () => this.client.getCurrency(name));
  }

  solanaStakes(accountId: number): Promise<SolanaStake[]> {
    return this.#once(`solana-stakes:${accountId}`, () => this.client.listSolanaStakes(accountId));
  }
}
