import type { CustodyClient } from "./custody-client.js";
import { timestampToDate } from "../schemas/primitives.js";
import type { Transaction, TransactionSearchQuery } from "../schemas/transaction.js";

/** A window of time by the service's clock, both ends included. */
export interface TimeWindow {
  since: Date;
  until: Date;
}

export interface WindowReadOptions {
  /** GET /transactions filters besides the page: account, status, label. */
  filter: Omit<TransactionSearchQuery, "page" | "page_size">;
  /** Reading stops at the first transaction created before this moment (the window's start unless earlier). */
  readBackTo: Date;
  /** Which of the transactions read belong to the answer. */
  keep(transaction: Transaction): boolean;
  /** At most this many transactions are read, in pages of `pageSize`. */
  maxRead: number;
  pageSize: number;
  signal?: AbortSignal | undefined;
}

export interface WindowRead {
  /** Newest first. */
  transactions: Transaction[];
  read: number;
  /** False when the cap stopped the read before `readBackTo`: older ones were not read. */
  complete: boolean;
  /** The creation date of the oldest transaction read, or null when none was. */
  oldestRead: string | null;
}

/** Whether a timestamp lies within the window. */
export function withinWindow(timestamp: string | null, window: TimeWindow): boolean {
  if (timestamp === null) return false;
  const at = timestampToDate(timestamp);
  return at >= window.since && at <= window.until;
}

/**
 * Transactions read newest first through GET /transactions (the spec names no date filter, see
 * docs/spec-decisions.md), page after page, until the first one created before `readBackTo` or
 * `maxRead` transactions: the cost follows the window, never the whole history. The filters are
 * checked again on what comes back, as every listing does.
 */
export async function transactionsInWindow(client: CustodyClient, options: WindowReadOptions): Promise<WindowRead> {
  const { filter } = options;
  const kept = new Map<number, Transaction>();
  let read = 0;
  let oldestRead: string | null = null;
  for (let page = 1; read < options.maxRead; page += 1) {
    const size = Math.min(options.pageSize, options.maxRead - read);
    const answer = await client.searchTransactions({ ...filter, page, page_size: size }, { signal: options.signal });
    const rows = answer.edges.map((edge) => edge.node);
    read += rows.length;
    let reachedStart = false;
    for (const tx of rows) {
      oldestRead = tx.created_on;
      if (timestampToDate(tx.created_on) < options.readBackTo) {
        reachedStart = true;
        break;
      }
      const matches = (filter.account_id === undefined || tx.account_id === filter.account_id) && (filter.status === undefined || tx.status === filter.status);
      if (matches && options.keep(tx)) kept.set(tx.id, tx);
    }
    // The service says when the listing ends: a page shorter than asked may be only its own page size.
    if (reachedStart || !answer.page_info.has_next_page) return { transactions: [...kept.values()], read, complete: true, oldestRead };
  }
  return { transactions: [...kept.values()], read, complete: false, oldestRead };
}
