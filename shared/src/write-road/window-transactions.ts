import { intentKeyOf, intentKeysOf, type ExpectedTransaction } from "../kinds/kit/lost-answer-fields.js";
import { timestampToDate } from "../schemas/primitives.js";
import type { Transaction } from "../schemas/transaction.js";

/**
 * Transactions of an account's window, newest first, each with its creation time (parsed once) and
 * its intent key (operation and amount), so that a dry run looks up the few that may be its write
 * instead of comparing every one, and a later window is cut by comparing numbers. Never changed
 * once made: a remembered window may be in use by another dry run.
 */
export class WindowTransactions {
  readonly #list: readonly Transaction[];
  readonly #createdMs: readonly number[];
  readonly #keys: readonly string[];
  #positions: Map<string, number[]> | undefined;

  private constructor(list: readonly Transaction[], createdMs: readonly number[], keys: readonly string[]) {
    this.#list = list;
    this.#createdMs = createdMs;
    this.#keys = keys;
  }

  /** Transactions as read, newest first. */
  static of(list: readonly Transaction[]): WindowTransactions {
    return new WindowTransactions(
      list,
      list.map((tx) => timestampToDate(tx.created_on).getTime()),
      list.map((tx) => intentKeyOf(tx)),
    );
  }

  get length(): number {
    return this.#list.length;
  }

  get list(): readonly Transaction[] {
    return this.#list;
  }

  /** The last (oldest by id) transaction's creation time, or null when there is none. */
  get lastCreatedMs(): number | null {
    return this.#createdMs.at(-1) ?? null;
  }

  /** Those created at or after `ms`: this very window when none is older. */
  createdSince(ms: number): WindowTransactions {
    if (this.#createdMs.every((created) => created >= ms)) return this;
    const kept = this.#createdMs.flatMap((created, index) => (created >= ms ? [index] : []));
    return this.#pick(kept);
  }

  /** These, then `older`, at most `max` of them. */
  concat(older: WindowTransactions, max: number): WindowTransactions {
    if (older.length === 0 && this.length <= max) return this;
    if (this.length === 0 && older.length <= max) return older;
    return new WindowTransactions(
      [...this.#list, ...older.#list].slice(0, max),
      [...this.#createdMs, ...older.#createdMs].slice(0, max),
      [...this.#keys, ...older.#keys].slice(0, max),
    );
  }

  /**
   * Newest first, every transaction that may be the write `expected` describes: those with one of
   * its intent keys, or all when it does not name both operation and amount. Each must still be
   * compared whole (transactionDifferences); none that could be the write is left out.
   */
  candidates(expected: ExpectedTransaction): readonly Transaction[] {
    const keys = intentKeysOf(expected);
    if (keys === null) return this.#list;
    const positions = this.#index();
    const found = keys.flatMap((key) => positions.get(key) ?? []);
    if (keys.length > 1) found.sort((a, b) => a - b);
    return found.map((position) => this.#list[position] as Transaction);
  }

  #index(): Map<string, number[]> {
    if (this.#positions === undefined) {
      const positions = new Map<string, number[]>();
      this.#keys.forEach((key, position) => {
        const at = positions.get(key);
        if (at === undefined) positions.set(key, [position]);
        else at.push(position);
      });
      this.#positions = positions;
    }
    return this.#positions;
  }

  #pick(indexes: readonly number[]): WindowTransactions {
    return new WindowTransactions(
      indexes.map((index) => this.#list[index] as Transaction),
      indexes.map((index) => this.#createdMs[index] as number),
      indexes.map((index) => this.#keys[index] as string),
    );
  }
}

/** No transactions. */
export const NO_WINDOW_TRANSACTIONS = WindowTransactions.of([]);
