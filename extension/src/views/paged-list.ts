export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** How many items the whole list holds, when the service says. */
  total?: number;
}

/** A list read page by page ("Load more"); a page is fetched once even if asked twice at once. */
export class PagedList<T> {
  #items: T[] = [];
  #pages = 0;
  #hasMore = true;
  #total: number | undefined;
  #loading: Promise<void> | undefined;

  constructor(private readonly fetchPage: (page: number) => Promise<Page<T>>) {}

  get items(): readonly T[] {
    return this.#items;
  }

  get hasMore(): boolean {
    return this.#hasMore;
  }

  /** The whole list's size as the last page read gave it, if it did. */
  get total(): number | undefined {
    return this.#total;
  }

  /** Loads page 1 unless a page is already loaded. */
  async first(): Promise<readonly T[]> {
    if (this.#pages === 0) await this.more();
    return this.#items;
  }

  more(): Promise<void> {
    this.#loading ??= this.#fetchNext().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #fetchNext(): Promise<void> {
    if (this.#pages > 0 && !this.#hasMore) return;
    const page = await this.fetchPage(this.#pages + 1);
    this.#items = [...this.#items, ...page.items];
    this.#pages += 1;
    this.#hasMore = page.hasMore && page.items.length > 0;
    this.#total = page.total;
  }
}
