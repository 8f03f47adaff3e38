import type { CustodyClient } from "../client/custody-client.js";
import { usernamesOf } from "../operations/workspace-users.js";
import { timestampToDate } from "../schemas/primitives.js";
import type { Transaction, TransactionStatus } from "../schemas/transaction.js";
import type { PlannedWrite } from "./planned-write.js";

/** A page of the account's transactions, newest first; the read stops at the window's start. */
export const HISTORY_PAGE_SIZE = 100;
/** At most this many pages (1,000 transactions of one account within the window): a busy account is read in part, and the dry run says so. */
export const HISTORY_MAX_PAGES = 10;

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
  /** How many of the account's transactions were read, and whether they reach back to the window's start. */
  read: number;
  complete: boolean;
}

/**
 * Whether a transaction of the workspace is the same intent as the planned write: on its account,
 * of its kind, moving the same amount to the same recipient, validator or stake, with the same
 * contract call data (the comparison each write kind makes of a lost answer's candidates), and not
 * one that moved nothing. An approval makes no transaction of its own: none is its copy.
 */
export function isSameIntent(plan: Pick<PlannedWrite, "account" | "lostAnswer">, tx: Transaction): boolean {
  const lost = plan.lostAnswer;
  if (lost.by === "approval") return false;
  return tx.account_id === plan.account.id && !NOTHING_MOVED.includes(tx.status) && lost.differences(tx).length === 0;
}

/**
 * The account's transactions identical to the planned write created since `since` (the service's
 * clock), read newest first with the account filter, page by page, stopping at the first
 * transaction older than the window: the cost follows the account's activity within the window,
 * never its whole history, and is capped at HISTORY_MAX_PAGES.
 */
export async function identicalInWorkspace(client: CustodyClient, plan: Pick<PlannedWrite, "account" | "lostAnswer" | "operator">, since: Date, signal?: AbortSignal): Promise<WorkspaceHistory> {
  if (plan.lostAnswer.by === "approval") return { identical: [], read: 0, complete: true };
  const matches: Transaction[] = [];
  let read = 0;
  for (let page = 1; page <= HISTORY_MAX_PAGES; page += 1) {
    const answer = await client.searchTransactions({ account_id: plan.account.id, page, page_size: HISTORY_PAGE_SIZE }, { signal });
    const rows = answer.edges.map((edge) => edge.node);
    read += rows.length;
    const within = rows.filter((tx) => timestampToDate(tx.created_on) >= since);
    matches.push(...within.filter((tx) => isSameIntent(plan, tx)));
    if (within.length < rows.length || rows.length < HISTORY_PAGE_SIZE) return { identical: await withCreators(client, plan.operator, matches, signal), read, complete: true };
  }
  return { identical: await withCreators(client, plan.operator, matches, signal), read, complete: false };
}

async function withCreators(client: CustodyClient, operator: string, matches: readonly Transaction[], signal?: AbortSignal): Promise<IdenticalTransaction[]> {
  if (matches.length === 0) return [];
  const names = await usernamesOf(client, [...new Set(matches.map((tx) => tx.created_by))], signal);
  return matches.map((transaction) => {
    const creator = names.get(transaction.created_by) ?? null;
    return { transaction, creator, ours: creator === operator };
  });
}
