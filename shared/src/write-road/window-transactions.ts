import { intentKeyOf, intentKeysOf, intentKeyStartsOf, type ExpectedTransaction } from "../kinds/kit/lost-answer-fields.js";
import { timestampToDate } from "../schemas/primitives.js";
import { TERMINAL_TRANSACTION_STATUSES, type Transaction } from "../schemas/transaction.js";

/**
 * A transaction of the window as the guard's store keeps it (saved-known-window.ts): its id,
 * creation time, intent key and whether its status was terminal when it was read, not the
 * transaction. It can only make the transaction a candidate: one is read again by id (GET
 * /transactions/{id}) before it is compared, so the store never decides a comparison by itself.
 */
export class KeptRow {
  constructor(
    readonly id: number,
    readonly createdMs: number,
    readonly key: string,
    readonly terminal: boolean,
  ) {}
}

/** A transaction of the window: read from the workspace, or kept by the store (KeptRow). */
export type WindowEntry = Transaction | KeptRow;

/** One entry as the store keeps it: id, creation time (milliseconds since the epoch), intent key, whether its status was terminal. */
export type KeptRowFields = [id: number, createdMs: number, key: string, terminal: boolean];

/**
 * Transactions of an account's window, newest first, each with its creation time (parsed once) and
 * its intent key (operation and amount), so that a dry run looks up the few that may be its write
 * instead of comparing every one, and a later window is cut by comparing numbers. Never changed
 * once made: a remembered window may be in use by another dry run.
 */
export class WindowTransactions {
  readonly #list: readonly WindowEntry[];
  readonly #createdMs: readonly number[];
  readonly #keys: readonly string[];
  #positions: Map<string, number[]> | undefined;

  private constructor(list: readonly WindowEntry[], createdMs: readonly number[], keys: readonly string[]) {
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

  /** Rows as the store kept them, newest first. */
  static kept(rows: readonly KeptRowFields[]): WindowTransactions {
    return new WindowTransactions(
      rows.map(([id, createdMs, key, terminal]) => new KeptRow(id, createdMs, key, terminal)),
      rows.map(([, createdMs]) => createdMs),
      rows.map(([, , key]) => key),
    );
  }

  get length(): number {
    return this.#list.length;
  }

  get list(): readonly WindowEntry[] {
    return this.#list;
  }

  /** Each entry as the store keeps it, newest first. */
  rows(): KeptRowFields[] {
    return this.#list.map((entry, index) => [
      entry.id,
      this.#createdMs[index] as number,
      this.#keys[index] as string,
      entry instanceof KeptRow ? entry.terminal : TERMINAL_TRANSACTION_STATUSES.includes(entry.status),
    ]);
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
   * Newest first, every entry that may be the write `expected` describes: those with one of its
   * intent keys; when it names its operations but no amount, those of its operations; all when it
   * names no operation. Each must still be compared whole (transactionDifferences; a KeptRow read
   * again first); none that could be the write is left out.
   */
  candidates(expected: ExpectedTransaction): readonly WindowEntry[] {
    const keys = intentKeysOf(expected);
    if (keys === null) {
      const starts = intentKeyStartsOf(expected);
      return starts === null ? this.#list : this.#list.filter((_, index) => starts.some((start) => (this.#keys[index] as string).startsWith(start)));
    }
    const positions = this.#index();
    const found = keys.flatMap((key) => positions.get(key) ?? []);
    if (keys.length > 1) found.sort((a, b) => a - b);
    return found.map((position) => this.#list[position] as WindowEntry);
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
      indexes.map((index) => this.#list[index] as WindowEntry),
      indexes.map((index) => this.#createdMs[index] as number),
      indexes.map((index) => this.#keys[index] as string),
    );
  }
}

/** No transactions. */
export const NO_WINDOW_TRANSACTIONS = WindowTransactions.of([]);
