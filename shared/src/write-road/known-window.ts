import type { CustodyClient } from "../client/custody-client.js";
import type { WindowTransactions } from "./window-transactions.js";

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
  transactions: WindowTransactions;
  /** A read that stopped at its cap: transactions created at or before this moment were not read (null: none missing back to `since`). */
  unreadBefore: Date | null;
}

/** At most this many transactions (about 10 MB) and accounts are remembered per client; the least recently read accounts are forgotten first. */
const MAX_REMEMBERED = 10_000;
const MAX_ACCOUNTS = 1000;

interface Remembered {
  byAccount: Map<number, KnownWindow>;
  transactions: number;
}

const windows = new WeakMap<CustodyClient, Remembered>();

/**
 * The service's time is known to the second (its Date header), so a later window may start a moment
 * before the last read's: a window remembered from one starting at most this much later is used,
 * 24 hours ago its far end a few seconds short.
 */
const CLOCK_SLACK_MS = 5000;

/** Whether a window read from `known.since` covers one from `since`: it started no later (give or take the service clock's slack). */
export function coversFrom(known: Pick<KnownWindow, "since">, since: Date): boolean {
  return known.since.getTime() <= since.getTime() + CLOCK_SLACK_MS;
}

/** The account's window as this process last read it, when it covers one from `since`; null otherwise. */
export function knownWindow(client: CustodyClient, accountId: number, since: Date): KnownWindow | null {
  const known = windows.get(client)?.byAccount.get(accountId);
  return known !== undefined && coversFrom(known, since) ? known : null;
}

/** Remembers an account's window, forgetting the least recently read accounts beyond MAX_REMEMBERED transactions or MAX_ACCOUNTS accounts. */
export function rememberWindow(client: CustodyClient, accountId: number, window: KnownWindow): void {
  const remembered = windows.get(client) ?? { byAccount: new Map<number, KnownWindow>(), transactions: 0 };
  windows.set(client, remembered);
  const { byAccount } = remembered;
  remembered.transactions += window.transactions.length - (byAccount.get(accountId)?.transactions.length ?? 0);
  byAccount.delete(accountId);
  byAccount.set(accountId, window);
  for (const [id, known] of byAccount) {
    if ((remembered.transactions <= MAX_REMEMBERED && byAccount.size <= MAX_ACCOUNTS) || id === accountId) break;
    byAccount.delete(id);
    remembered.transactions -= known.transactions.length;
  }
}
