import type { CustodyClient } from "../client/custody-client.js";
import type { Transaction } from "../schemas/transaction.js";

/**
 * What this process has read of an account's window: its transactions (whose amount, recipient,
 * kind, notes, creator and time never change; a status that can still change is read again when
 * it matters), the newest id read, and the window's start the read reached back to.
 */
export interface KnownWindow {
  /** The newest transaction read (of any age), by id and creation time: the list must still hold it where a later read stops. */
  newest: number;
  newestCreated: string;
  since: Date;
  /** Newest first, all created since `since`. */
  transactions: Transaction[];
  /** A read that stopped at its cap: transactions created at or before this moment were not read (null: none missing back to `since`). */
  unreadBefore: Date | null;
}

/** At most this many transactions are remembered across a client's accounts (about 10 MB); the least recently read accounts are forgotten first. */
const MAX_REMEMBERED = 10_000;

const windows = new WeakMap<CustodyClient, Map<number, KnownWindow>>();

/**
 * The service's time is known to the second (its Date header), so a later window may start a moment
 * before the last read's: a window remembered from one starting at most this much later is used,
 * 24 hours ago its far end a few seconds short.
 */
const CLOCK_SLACK_MS = 5000;

/** The account's window as last read, when it started no later than `since` (give or take the service clock's slack); null otherwise. */
export function knownWindow(client: CustodyClient, accountId: number, since: Date): KnownWindow | null {
  const known = windows.get(client)?.get(accountId);
  return known !== undefined && known.since.getTime() <= since.getTime() + CLOCK_SLACK_MS ? known : null;
}

/** Remembers an account's window, forgetting the least recently read accounts beyond MAX_REMEMBERED transactions. */
export function rememberWindow(client: CustodyClient, accountId: number, window: KnownWindow): void {
  const byAccount = windows.get(client) ?? new Map<number, KnownWindow>();
  windows.set(client, byAccount);
  byAccount.delete(accountId);
  byAccount.set(accountId, window);
  let total = [...byAccount.values()].reduce((sum, known) => sum + known.transactions.length, 0);
  for (const [id, known] of byAccount) {
    if (total <= MAX_REMEMBERED || id === accountId) break;
    byAccount.delete(id);
    total -= known.transactions.length;
  }
}
