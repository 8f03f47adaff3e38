import type { CustodyClient } from "../client/custody-client.js";
import { usernamesOf } from "../governance/workspace-users.js";
import { accountDirectoryOf } from "../kinds/kit/account-directory.js";
import type { Account } from "../schemas/account.js";
import type { AccountReference } from "../kinds/kit/request-fields.js";
import { timestampToDate } from "../schemas/primitives.js";
import { TERMINAL_TRANSACTION_STATUSES, type Transaction, type TransactionStatus } from "../schemas/transaction.js";
import { knownWindow, rememberWindow, type KnownWindow } from "./known-window.js";
import type { SavedWindows } from "../guard-store/saved-windows.js";
import { SavedRowsRefused } from "../guard-store/saved-rows-text.js";
import { savedKnownWindow, saveKnownWindow } from "./saved-known-window.js";
import type { PlannedWrite } from "./planned-write.js";
import { transactionDifferences } from "../kinds/kit/lost-answer-fields.js";
import { historyPages, type HistoryPage } from "./history-pages.js";
import { KeptRow, NO_WINDOW_TRANSACTIONS, WindowTransactions } from "./window-transactions.js";

/** The first page of the account's transactions, newest first: a quiet account's whole window, usually. */
export const HISTORY_FIRST_PAGE = 10;
/** The first page when the process has read the window before: what is new since, usually less. */
export const HISTORY_KNOWN_FIRST_PAGE = 5;
/**
 * At most this many of the account's newest transactions are compared (1,280: each page of the read
 * reaches about twice as far as the one before, historyPages); a busier window is read in part,
 * and the dry run says so.
 */
export const HISTORY_MAX_READ = 1280;
/** Once the first page shows the window goes on, the following pages are asked this many at a time. */
const PAGES_AT_ONCE = 2;
/**
 * At most this many candidates kept by the store (KeptRow) are read again by id, all at once; a write
 * with more (many of its operation and amount in the window) has the window read whole instead.
 */
const MAX_KEPT_CANDIDATES = 8;

/** Transactions that certainly moved nothing and never will: they do not make a write a duplicate. */
const NOTHING_MOVED: readonly TransactionStatus[] = ["REJECTED", "EXPIRED", "FAILED"];

/** A transaction of the workspace identical to a planned write, with who created it. */
export interface IdenticalTransaction {
  transaction: Transaction;
  /** The creator's username, or null when the users list does not show it. */
  creator: string | null;
  /** Created by the write's own operator, whatever process or store made it. */
  ours: boolean;
}

export interface WorkspaceHistory {
  /** Newest first. */
  identical: IdenticalTransaction[];
  /** How many transactions this read fetched; how many of the window's were compared, and whether they reach back to its start. */
  read: number;
  compared: number;
  complete: boolean;
  /** Why the window the guard's store saved for the account was not used (its seal does not verify): the window was read whole. */
  savedRefused?: string;
}

/** Where a window's read comes from and goes: the workspace's client, and the guard's store's saved windows (none: none kept). */
export interface HistorySource {
  client: CustodyClient;
  saved?: SavedWindows | undefined;
}

/**
 * Whether a transaction of the workspace is the same intent as the planned write: on its account,
 * of its kind, moving the same amount to the same recipient, validator or stake, with the same
 * contract call data (the comparison each write kind makes of a lost answer's candidates), and not
 * one that moved nothing. An approval makes no transaction of its own: none is its copy.
 */
function isSameIntent(plan: Pick<PlannedWrite, "account" | "lostAnswer">, tx: Transaction): boolean {
  const lost = plan.lostAnswer;
  if (lost.by === "approval") return false;
  return tx.account_id === plan.account.id && !NOTHING_MOVED.includes(tx.status) && transactionDifferences(lost.expected, tx).length === 0;
}

/** An account's transactions created within the window, newest first, and how far the read got. */
export interface RecentTransactions {
  transactions: WindowTransactions;
  /** How many transactions this read fetched (a row that joins two pages counts twice). */
  read: number;
  complete: boolean;
  /** The ids of those this read fetched; the others are taken from what the process read before (their status may have changed since). */
  fresh: ReadonlySet<number>;
  /** Whose window, from when. */
  accountId: number;
  since: Date;
  /** Why the window the store saved was not used, or null. */
  savedRefused: string | null;
}

/**
 * The account's transactions created since `since` (the service's clock), read newest first with
 * the account filter, stopping at the first transaction older than the window, or at the newest
 * one this process read before (what it read of the window then is remembered), else the newest
 * one a process of the guard's store read before (the store keeps each account's window, sealed):
 * the cost follows the account's activity within the window, and after the first read only what
 * is new, never the account's whole history; capped at HISTORY_MAX_READ.
 */
async function recentTransactions(source: HistorySource, accountId: number, since: Date, signal?: AbortSignal): Promise<RecentTransactions> {
  const remembered = readOn(knownWindow(source.client, accountId, since), since);
  if (remembered !== null || source.saved === undefined) return readWindow(source, accountId, since, remembered, signal);
  // Once the store shows it has a window, the page a known window's read starts with is asked while the window is checked and
  // parsed (the two overlap); unused when the window is not (a window refused, or one that does not cover `since`).
  let head: Promise<TransactionPage> | undefined;
  const found = () => {
    head = source.client.searchTransactions({ account_id: accountId, page: 1, page_size: HISTORY_KNOWN_FIRST_PAGE }, { signal });
    head.catch(() => undefined);
  };
  const saved = await savedKnownWindow(source.saved, source.client, accountId, since, { maxRows: HISTORY_MAX_READ, found });
  const known = readOn(saved.known, since);
  return { ...(await readWindow(source, accountId, since, known, signal, known === null ? undefined : head)), savedRefused: saved.refused };
}

/**
 * The window read before, when a read can go on from it: one that reaches back to `since`, or that was read in part only because
 * the window holds more than the cap (it then keeps HISTORY_MAX_READ rows for as long as it is partial). One read in part for
 * another reason (pages that stopped joining: a service that answered a short or shifted page once) is not: gone on from, its
 * unread part would stay unread for the rest of the window by every process of the store, each only warned; it is read whole.
 */
function readOn(known: KnownWindow | null, since: Date): KnownWindow | null {
  if (known === null || known.unreadBefore === null || known.unreadBefore < since) return known;
  return known.transactions.length >= HISTORY_MAX_READ ? known : null;
}

/**
 * Whether a page joins the rows read so far: it starts at their last row or a newer one (pages overlap by at least a row), so
 * none between was skipped. A page without rows shows no row to join by: it joins only as the first page of an empty list. After
 * rows were read it is no list's end: each page starts at or before the last row of the one before, which said more follow, so
 * one without rows was answered before that one (and transactions created between moved rows past both), or the service
 * answered fewer rows than asked; asked again, it joins by its rows or the read stops there, said partial.
 */
function joins(last: Transaction | null, page: { rows: readonly Transaction[]; more: boolean }): boolean {
  const first = page.rows[0];
  if (first === undefined) return last === null && !page.more;
  return last === null || first.id >= last.id;
}

/** Whether `count` transactions created over `span` suggest the window (from `sinceMs`) holds more than `rows` (always, when they share one moment). */
function windowGoesPast(count: number, span: { newest: number; oldest: number }, sinceMs: number, rows: number): boolean {
  if (count === 0 || span.newest <= span.oldest) return true;
  return (count * (span.newest - sinceMs)) / (span.newest - span.oldest) > rows;
}

/** One page of the account's transactions as the service answered it. */
type TransactionPage = Awaited<ReturnType<CustodyClient["searchTransactions"]>>;

/** `head`: the read's first page (page 1 of HISTORY_KNOWN_FIRST_PAGE, for a known window), already asked. */
async function readWindow(
  source: HistorySource,
  accountId: number,
  since: Date,
  known: KnownWindow | null,
  signal?: AbortSignal,
  head?: Promise<TransactionPage>,
): Promise<RecentTransactions> {
  const { client } = source;
  const sinceMs = since.getTime();
  const seen = new Set<number>();
  const fresh: Transaction[] = [];
  let newest = known === null ? null : { id: known.newest, created_on: known.newestCreated };
  let last: Transaction | null = null;
  let read = 0;
  let stop: "window" | "known" | "cap" = "cap";
  const pages = historyPages(known === null ? HISTORY_FIRST_PAGE : HISTORY_KNOWN_FIRST_PAGE, HISTORY_MAX_READ);
  const pageOf = async (asked: Promise<TransactionPage>): Promise<{ rows: Transaction[]; more: boolean }> => {
    const answer = await asked;
    read += answer.edges.length;
    return { rows: answer.edges.map((edge) => edge.node), more: answer.page_info.has_next_page };
  };
  const fetchPage = (page: HistoryPage) => pageOf(client.searchTransactions({ account_id: accountId, page: page.page, page_size: page.size }, { signal }));
  // The creation times of the newest and the oldest transaction of the window read so far.
  const span = { newest: -Infinity, oldest: Infinity };
  reading: for (let next = 0; next < pages.length;) {
    // The first page alone; once it shows the window goes on, the following ones PAGES_AT_ONCE at a time, unless the rows read so
    // far, spread over the time they cover, suggest the window ends within the next page (then one, which reads no more than needed).
    const alone = next === 0 || !windowGoesPast(seen.size, span, sinceMs, (pages[next] as HistoryPage).end);
    const round = pages.slice(next, next + (alone ? 1 : PAGES_AT_ONCE));
    const answers = round.map((page) => (next === 0 && head !== undefined && known !== null ? pageOf(head) : fetchPage(page)));
    next += round.length;
    for (const answer of answers) answer.catch(() => undefined);
    for (const [index, answer] of answers.entries()) {
      let page = await answer;
      // A page asked beside an earlier one may have been answered first, before a transaction created meanwhile moved the rows down:
      // asked again now, after the earlier one's answer, it can only overlap it more. One that still does not join it (a list that
      // lost rows, a service answering other pages than asked) ends the read where the rows stop joining: the rest is not read.
      if (!joins(last, page)) page = await fetchPage(round[index] as HistoryPage);
      if (!joins(last, page)) break reading;
      const { rows, more } = page;
      const boundary = known === null ? undefined : rows.find((tx) => tx.id <= known.newest);
      // Transactions are never deleted: the first one not newer than the newest read before is that one, or the list is
      // not the one read before (a workspace restored or reset), and nothing remembered of it is used.
      if (boundary !== undefined && (boundary.id !== known?.newest || boundary.created_on !== known.newestCreated))
        return readWindow(source, accountId, since, null, signal);
      let older = false;
      for (const tx of rows) {
        if (newest === null || tx.id > newest.id) newest = { id: tx.id, created_on: tx.created_on };
        const created = timestampToDate(tx.created_on).getTime();
        if (created < sinceMs) older = true;
        // The account is checked again (a service that ignored the filter lists every account's); a row read twice is taken once.
        else if (tx.account_id === accountId && !seen.has(tx.id) && (known === null || tx.id > known.newest)) {
          seen.add(tx.id);
          fresh.push(tx);
          span.newest = Math.max(span.newest, created);
          span.oldest = Math.min(span.oldest, created);
        }
      }
      // The oldest row read so far: a page answered with rows already read (a service that answers fewer than asked) leaves it.
      const oldest = rows.at(-1);
      if (oldest !== undefined && (last === null || oldest.id < last.id)) last = oldest;
      if (boundary !== undefined) {
        stop = "known";
        break reading;
      }
      if (older || !more) {
        stop = "window";
        break reading;
      }
    }
  }
  const earlier = stop === "known" && known !== null ? known.transactions.createdSince(sinceMs) : NO_WINDOW_TRANSACTIONS;
  // At most the newest HISTORY_MAX_READ are kept: what lies between the oldest kept and the window's start is not read, and remembered as such.
  const transactions = WindowTransactions.of(fresh).concat(earlier, HISTORY_MAX_READ);
  const lastCreated = transactions.lastCreatedMs;
  const cut = stop === "cap" || transactions.length < fresh.length + earlier.length;
  // A read cut before it kept any of the account's transactions (its rows were other accounts', or they stopped joining) read
  // none of the window: said (unread back from the window's start), and not remembered, so the next read starts afresh.
  const unreadBefore = cut ? new Date(lastCreated ?? sinceMs) : stop === "known" ? (known?.unreadBefore ?? null) : null;
  if (known !== null && transactions === known.transactions && newest?.id === known.newest && unreadBefore === known.unreadBefore) {
    rememberWindow(client, accountId, known);
  } else if (newest !== null && !(cut && lastCreated === null)) {
    const window = { newest: newest.id, newestCreated: newest.created_on, since, transactions, unreadBefore };
    rememberWindow(client, accountId, window);
    if (source.saved !== undefined) saveKnownWindow(source.saved, client, accountId, window);
  }
  return { transactions, read, complete: unreadBefore === null || unreadBefore < since, fresh: seen, accountId, since, savedRefused: null };
}

/**
 * Those of the recent transactions identical to the planned write, with who created each; one
 * remembered from an earlier read whose status could still change is read again, so that one
 * rejected or expired since no longer counts, and one the store kept (a KeptRow) is read again
 * whatever it says, so the store only ever names a candidate. Only the candidates with the write's
 * operation and amount are compared (WindowTransactions.candidates); more kept ones than
 * MAX_KEPT_CANDIDATES and the window is read whole instead.
 */
async function identicalAmong(
  source: HistorySource,
  plan: Pick<PlannedWrite, "account" | "lostAnswer" | "operator">,
  recent: RecentTransactions,
  signal?: AbortSignal,
): Promise<WorkspaceHistory> {
  const { client } = source;
  const lost = plan.lostAnswer;
  const entries = lost.by === "approval" ? [] : recent.transactions.candidates(lost.expected);
  if (entries.filter((entry) => entry instanceof KeptRow).length > MAX_KEPT_CANDIDATES) {
    const whole = await readWindow(source, recent.accountId, recent.since, null, signal);
    return identicalAmong(source, plan, { ...whole, read: recent.read + whole.read, savedRefused: recent.savedRefused }, signal);
  }
  const candidates = await Promise.all(
    entries
      .filter((entry) => entry instanceof KeptRow || isSameIntent(plan, entry))
      .map((entry) =>
        entry instanceof KeptRow || (!recent.fresh.has(entry.id) && !TERMINAL_TRANSACTION_STATUSES.includes(entry.status))
          ? client.getTransaction(entry.id, { signal })
          : entry,
      ),
  );
  const matches = candidates.filter((tx) => isSameIntent(plan, tx));
  return {
    identical: await withCreators(client, plan.operator, matches, signal),
    read: recent.read,
    compared: recent.transactions.length,
    complete: recent.complete,
    ...(recent.savedRefused === null ? {} : { savedRefused: recent.savedRefused }),
  };
}

/**
 * The account's transactions identical to the planned write created since `since`: the read a plan
 * already started (`prefetched`), else recentTransactions (from the store's saved window when the
 * process has read none: `saved`); then identicalAmong.
 */
export async function identicalInWorkspace(
  client: CustodyClient,
  plan: Pick<PlannedWrite, "account" | "lostAnswer" | "operator">,
  since: Date,
  options: { signal?: AbortSignal | undefined; prefetched?: Promise<RecentTransactions> | null | undefined; saved?: SavedWindows | undefined } = {},
): Promise<WorkspaceHistory> {
  if (plan.lostAnswer.by === "approval") return { identical: [], read: 0, compared: 0, complete: true };
  const source = { client, saved: options.saved };
  try {
    return await identicalAmong(source, plan, await (options.prefetched ?? recentTransactions(source, plan.account.id, since, options.signal)), options.signal);
  } catch (error) {
    if (!(error instanceof SavedRowsRefused)) throw error;
    // A window whose seal verifies but whose rows are read (as far as asked) to be none this build saves: read whole, as one
    // whose seal fails is, then remembered and kept anew in its place (left, it would stop every later dry run on the account).
    const whole = await readWindow(source, plan.account.id, since, null, options.signal);
    return identicalAmong(source, plan, { ...whole, savedRefused: SavedRowsRefused.REASON }, options.signal);
  }
}

/**
 * The window's read started as soon as a plan has resolved its account, so that it runs beside the
 * rest of the plan (balances, fees, governance) instead of after it: one per plan.
 */
export class HistoryPrefetch {
  #started: { accountId: number; read: Promise<RecentTransactions> } | null = null;

  constructor(
    private readonly source: HistorySource,
    private readonly windowMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  /** Starts the read of this account's window (once). */
  readonly start = (account: Pick<Account, "id">): void => {
    if (this.#started?.accountId === account.id) return;
    const since = new Date(this.source.client.serviceNow().getTime() - this.windowMs);
    const read = recentTransactions(this.source, account.id, since, this.signal);
    // Awaited by the duplicate check; a plan that fails first never awaits it, and its failure must not go unhandled.
    read.catch(() => undefined);
    this.#started = { accountId: account.id, read };
  };

  /**
   * Starts the read before the account is resolved, from the id the request gives or the one the
   * name directory's hint names (no request made), so that it runs beside the account's own GETs
   * too. Only ever a head start: the check takes the read of the account the plan resolves
   * (readFor), and a hint that was wrong just starts that one when it is resolved.
   */
  startFromReference(reference: AccountReference): void {
    const id =
      typeof reference === "number"
        ? reference
        : /^#[1-9][0-9]*$/.test(reference)
          ? Number(reference.slice(1))
          : accountDirectoryOf(this.source.client).hints()?.ids(reference);
    const only = typeof id === "number" ? id : id?.length === 1 ? id[0] : undefined;
    if (only !== undefined && Number.isSafeInteger(only)) this.start({ id: only });
  }

  /** The read started for this account, or null. */
  readFor(accountId: number): Promise<RecentTransactions> | null {
    return this.#started?.accountId === accountId ? this.#started.read : null;
  }
}

async function withCreators(client: CustodyClient, operator: string, matches: readonly Transaction[], signal?: AbortSignal): Promise<IdenticalTransaction[]> {
  if (matches.length === 0) return [];
  const names = await usernamesOf(client, [...new Set(matches.map((tx) => tx.created_by))], signal);
  return matches.map((transaction) => {
    const creator = names.get(transaction.created_by) ?? null;
    return { transaction, creator, ours: creator === operator };
  });
}
