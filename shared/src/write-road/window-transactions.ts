import { intentKeyOf, intentKeysOf, intentKeyStartsOf, type ExpectedTransaction } from "../kinds/kit/lost-answer-fields.js";
import { timestampToDate } from "../schemas/primitives.js";
import { TERMINAL_TRANSACTION_STATUSES, type Transaction } from "../schemas/transaction.js";
import type { SavedRow, SavedRowsText } from "../guard-store/saved-rows-text.js";

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

/**
 * Transactions of an account's window, newest first, each with its creation time (parsed once) and
 * its intent key (operation and amount), so that a dry run looks up the few that may be its write
 * instead of comparing every one, and a later window is cut by comparing numbers. Never changed
 * once made: a remembered window may be in use by another dry run.
 */
export class WindowTransactions {
  #entries: Entries | undefined;
  /** Rows a store saved, not read yet (SavedRowsText): read as far as asked, whole when anything else is asked. */
  readonly #saved: SavedRowsText | undefined;
  #positions: Map<string, number[]> | undefined;

  private constructor(entries: Entries | undefined, saved?: SavedRowsText) {
    this.#entries = entries;
    this.#saved = saved;
  }

  /** Transactions as read, newest first. */
  static of(list: readonly Transaction[]): WindowTransactions {
    return new WindowTransactions({
      list,
      createdMs: list.map((tx) => timestampToDate(tx.created_on).getTime()),
      keys: list.map((tx) => intentKeyOf(tx)),
    });
  }

  /** Rows as the store kept them, newest first. */
  static kept(rows: readonly SavedRow[]): WindowTransactions {
    return new WindowTransactions(keptEntries(rows));
  }

  /**
   * Rows a store saved, as their sealed text: a new process's first dry run finds its write's candidates in it and the window's
   * length and oldest time in its head; the rows are parsed (and checked) only when more is asked.
   */
  static saved(rows: SavedRowsText): WindowTransactions {
    return new WindowTransactions(undefined, rows);
  }

  get #all(): Entries {
    this.#entries ??= keptEntries((this.#saved as SavedRowsText).all());
    return this.#entries;
  }

  get length(): number {
    return this.#entries?.list.length ?? (this.#saved as SavedRowsText).count;
  }

  get list(): readonly WindowEntry[] {
    return this.#all.list;
  }

  /** Each entry as the store keeps it, newest first. */
  rows(): SavedRow[] {
    const { list, createdMs, keys } = this.#all;
    return list.map((entry, index) => [
      entry.id,
      createdMs[index] as number,
      keys[index] as string,
      entry instanceof KeptRow ? entry.terminal : TERMINAL_TRANSACTION_STATUSES.includes(entry.status),
    ]);
  }

  /** The last (oldest by id) transaction's creation time, or null when there is none. */
  get lastCreatedMs(): number | null {
    if (this.#entries === undefined) return (this.#saved as SavedRowsText).lastCreatedMs;
    return this.#entries.createdMs.at(-1) ?? null;
  }

  /** Those created at or after `ms`: this very window when none is older. */
  createdSince(ms: number): WindowTransactions {
    if (this.#noneBefore(ms)) return this;
    const kept = this.#all.createdMs.flatMap((created, index) => (created >= ms ? [index] : []));
    return this.#pick(kept);
  }

  #noneBefore(ms: number): boolean {
    if (this.#entries !== undefined) return this.#entries.createdMs.every((created) => created >= ms);
    const earliest = (this.#saved as SavedRowsText).earliestCreatedMs;
    return earliest === null || earliest >= ms;
  }

  /** These, then `older`, at most `max` of them. */
  concat(older: WindowTransactions, max: number): WindowTransactions {
    if (older.length === 0 && this.length <= max) return this;
    if (this.length === 0 && older.length <= max) return older;
    const [mine, theirs] = [this.#all, older.#all];
    return new WindowTransactions({
      list: [...mine.list, ...theirs.list].slice(0, max),
      createdMs: [...mine.createdMs, ...theirs.createdMs].slice(0, max),
      keys: [...mine.keys, ...theirs.keys].slice(0, max),
    });
  }

  /**
   * Newest first, every entry that may be the write `expected` describes: those with one of its
   * intent keys; when it names its operations but no amount, those of its operations; all when it
   * names no operation. Each must still be compared whole (transactionDifferences; a KeptRow read
   * again first); none that could be the write is left out.
   */
  candidates(expected: ExpectedTransaction): readonly WindowEntry[] {
    const keys = intentKeysOf(expected);
    if (keys !== null && this.#entries === undefined) {
      // Rows not read yet: only those with the write's keys are (newest first: ids fall down the window).
      const saved = this.#saved as SavedRowsText;
      const rows = keys.flatMap((key) => saved.withKey(key));
      if (keys.length > 1) rows.sort((a, b) => b[0] - a[0]);
      return keptEntries(rows).list;
    }
    const { list, keys: entryKeys } = this.#all;
    if (keys === null) {
      const starts = intentKeyStartsOf(expected);
      return starts === null ? list : list.filter((_, index) => starts.some((start) => (entryKeys[index] as string).startsWith(start)));
    }
    const positions = this.#index();
    const found = keys.flatMap((key) => positions.get(key) ?? []);
    if (keys.length > 1) found.sort((a, b) => a - b);
    return found.map((position) => list[position] as WindowEntry);
  }

  #index(): Map<string, number[]> {
    if (this.#positions === undefined) {
      const positions = new Map<string, number[]>();
      this.#all.keys.forEach((key, position) => {
        const at = positions.get(key);
        if (at === undefined) positions.set(key, [position]);
        else at.push(position);
      });
      this.#positions = positions;
    }
    return this.#positions;
  }

  #pick(indexes: readonly number[]): WindowTransactions {
    const { list, createdMs, keys } = this.#all;
    return new WindowTransactions({
      list: indexes.map((index) => list[index] as WindowEntry),
      createdMs: indexes.map((index) => createdMs[index] as number),
      keys: indexes.map((index) => keys[index] as string),
    });
  }
}

/** A window's entries, newest first, with each one's creation time and intent key. */
interface Entries {
  list: readonly WindowEntry[];
  createdMs: readonly number[];
  keys: readonly string[];
}

function keptEntries(rows: readonly SavedRow[]): Entries {
  return {
    list: rows.map(([id, createdMs, key, terminal]) => new KeptRow(id, createdMs, key, terminal)),
    createdMs: rows.map(([, createdMs]) => createdMs),
    keys: rows.map(([, , key]) => key),
  };
}

/** No transactions. */
export const NO_WINDOW_TRANSACTIONS = WindowTransactions.of([]);
