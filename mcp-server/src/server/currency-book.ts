import type { CustodyClient, Currency } from "@custody/shared";

/**
 * Currencies by identifier, fetched once: their units do not change while the server runs.
 * Used to show read answers in both units; writes fetch their currency fresh on the write road.
 */
export class CurrencyBook {
  readonly #client: CustodyClient;
  readonly #known = new Map<string, Promise<Currency>>();

  constructor(client: CustodyClient) {
    this.#client = client;
  }

  get(name: string, signal?: AbortSignal): Promise<Currency> {
    let pending = this.#known.get(name);
    if (!pending) {
      pending = this.#client.getCurrency(name, { signal });
      this.#known.set(name, pending);
      pending.catch(() => this.#known.delete(name));
    }
    return pending;
  }
}
