import type { CustodyClient } from "../client/custody-client.js";
import type { LoadedSavedWindow, SavedWindows, WindowPlace } from "../guard-store/saved-windows.js";
import { coversFrom, type KnownWindow } from "./known-window.js";
import { WindowTransactions } from "./window-transactions.js";

/** The account's window a process of the store verified, or why the one saved was refused (then the window is read whole). */
export interface SavedKnown {
  known: KnownWindow | null;
  /** Why a saved window was not used: its seal does not verify, or it is not a window this guard saves; null when none was refused. */
  refused: string | null;
}

/**
 * The workspace as the client's operator is shown it, and the account: an operator may be shown less than another (the module's
 * view-all is a permission of its own), so a window one operator read is not taken for another's (a transaction it was not shown
 * would stay unread for the other). The operator's name has no space, the base URL none either.
 */
function placeOf(client: CustodyClient, accountId: number): WindowPlace {
  return { workspace: `${client.baseUrl} as ${client.operator}`, account_id: accountId };
}

/**
 * The account's window as a process of this store last verified it (the store's saved windows,
 * sealed), when it covers the window from `since`. Its transactions are KeptRows: what the store
 * kept can only make a transaction a candidate, read again by id before it is compared. `found`:
 * see SavedWindows.load.
 */
export async function savedKnownWindow(
  saved: SavedWindows,
  client: CustodyClient,
  accountId: number,
  since: Date,
  options: { maxRows: number; found?: () => void },
): Promise<SavedKnown> {
  const loaded = await saved.load(placeOf(client, accountId), options.found);
  if (loaded.found === "none") return { known: null, refused: null };
  if (loaded.found === "untrusted") return { known: null, refused: loaded.reason };
  const known = knownFrom(loaded.window, options.maxRows);
  if (known === null) return { known: null, refused: "not a window this guard saves" };
  return { known: coversFrom(known, since) ? known : null, refused: null };
}

/** Queues the window for the store (sealed there, written off the dry run's path). */
export function saveKnownWindow(saved: SavedWindows, client: CustodyClient, accountId: number, window: KnownWindow): void {
  saved.save(placeOf(client, accountId), {
    newest: { id: window.newest, created_on: window.newestCreated },
    since: window.since.toISOString(),
    unread_before: window.unreadBefore?.toISOString() ?? null,
    rows: window.transactions.rows(),
  });
}

/**
 * The window a saved one describes, or null when it is not one a read makes (too many rows, a time that is none). Its rows are
 * read as far as the dry run asks (WindowTransactions.saved): their order is checked when they are all read.
 */
function knownFrom(window: LoadedSavedWindow, maxRows: number): KnownWindow | null {
  const { rows } = window;
  const since = new Date(window.since);
  const unreadBefore = window.unread_before === null ? null : new Date(window.unread_before);
  if (rows.count > maxRows || Number.isNaN(since.getTime()) || (unreadBefore !== null && Number.isNaN(unreadBefore.getTime()))) return null;
  return { newest: window.newest.id, newestCreated: window.newest.created_on, since, transactions: WindowTransactions.saved(rows), unreadBefore };
}
