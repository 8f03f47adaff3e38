import type { TransactionStatus } from "@custody/shared";
import type { TransactionRow } from "../state-types.js";
import { KeyMultimap } from "./key-multimap.js";
import { SortedIds } from "./sorted-ids.js";

export interface TransactionSelection {
  accountId: number | null;
  status: TransactionStatus | null;
  /** Matched, case-insensitively, as a substring of a note's title or content. */
  label: string | null;
}

export interface SelectedPage {
  /** The ids of the page, newest (highest id) first. */
  ids: number[];
  /** How many transactions match in all. */
  count: number;
}

/** Transactions by id, by account and by status, with their notes folded for the label search. */
export class TransactionIndex {
  readonly ids = new SortedIds();
  readonly #byAccount = new Map<number, SortedIds>();
  readonly #byStatus = new KeyMultimap<TransactionStatus, number>();
  readonly #noteText = new Map<number, string[]>();

  update(before: TransactionRow | undefined, after: TransactionRow | undefined): void {
    if (before && (!after || before.status !== after.status)) this.#byStatus.delete(before.status, before.id);
    if (before && !after) {
      this.ids.delete(before.id);
      this.#byAccount.get(before.account_id)?.delete(before.id);
      this.#noteText.delete(before.id);
      return;
    }
    if (!after) return;
    if (!before || before.status !== after.status) this.#byStatus.add(after.status, after.id);
    if (!before || before.account_id !== after.account_id) {
      if (before) this.#byAccount.get(before.account_id)?.delete(before.id);
      this.ids.add(after.id);
      let ofAccount = this.#byAccount.get(after.account_id);
      if (!ofAccount) {
        ofAccount = new SortedIds();
        this.#byAccount.set(after.account_id, ofAccount);
      }
      ofAccount.add(after.id);
    }
    if (!before || before.notes !== after.notes) {
      const text = after.notes.flatMap((note) => [note.title.toLowerCase(), note.content.toLowerCase()]);
      if (text.length > 0) this.#noteText.set(after.id, text);
      else this.#noteText.delete(after.id);
    }
  }

  /** Ids of the transactions in this status (no order). */
  withStatus(status: TransactionStatus): ReadonlySet<number> {
    return this.#byStatus.get(status);
  }

  /**
   * One page of the matching transactions, newest first, and how many match. It walks the
   * smallest of the candidate lists (all, the account's, the status's); without a label the
   * count needs no walk and the page stops as soon as it is full. A label is a substring
   * search, so it reads every candidate's notes: linear in the candidates.
   */
  select(selection: TransactionSelection, start: number, size: number, accountOf: (id: number) => number | undefined): SelectedPage {
    const { accountId, status } = selection;
    const label = selection.label === null ? null : selection.label.toLowerCase();
    const all = accountId === null ? this.ids.ascending() : (this.#byAccount.get(accountId)?.ascending() ?? []);
    const ofStatus = status === null ? null : this.#byStatus.get(status);
    let candidates: readonly number[] = all;
    let checkStatus = false;
    let checkAccount = false;
    if (ofStatus) {
      if (ofStatus.size < all.length) {
        candidates = [...ofStatus].sort((a, b) => a - b);
        checkAccount = accountId !== null;
      } else {
        checkStatus = true;
      }
    }
    const matches = (id: number): boolean =>
      (!checkStatus || ofStatus?.has(id) === true) &&
      (!checkAccount || accountOf(id) === accountId) &&
      (label === null || (this.#noteText.get(id)?.some((text) => text.includes(label)) ?? false));
    const ids: number[] = [];
    const end = start + size;
    if (!checkStatus && !checkAccount && label === null) {
      for (let position = start; position < end && position < candidates.length; position += 1) {
        ids.push(candidates[candidates.length - 1 - position] as number);
      }
      return { ids, count: candidates.length };
    }
    const needCount = label !== null || !(ofStatus && checkStatus && accountId === null);
    let count = 0;
    for (let index = candidates.length - 1; index >= 0; index -= 1) {
      const id = candidates[index] as number;
      if (!matches(id)) continue;
      if (count >= start && count < end) ids.push(id);
      count += 1;
      if (!needCount && count >= end) return { ids, count: ofStatus?.size ?? count };
    }
    return { ids, count };
  }
}
