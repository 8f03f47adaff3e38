import type { CustodyClient } from "../client/custody-client.js";
import type { CallOptions } from "../client/client-options.js";
import type { Account } from "../schemas/account.js";
import type { RequestStatus } from "../schemas/request-status.js";
import { timestampToDate } from "../schemas/primitives.js";
import type { Transaction } from "../schemas/transaction.js";
import { approvalStanding, missingSteps, requestExpiresAt, type ApprovalStanding, type MissingStep } from "./request-standing.js";

/** A transaction waiting for approval, with what it needs and who can give it. */
export interface PendingApproval {
  transaction: Transaction;
  account: Account;
  /** The creator's username, or null when the users list does not name the id. */
  created_by: string | null;
  rule: RequestStatus["rule"];
  missing: MissingStep[];
  operator: ApprovalStanding;
  expires_at: Date;
}

/**
 * The transactions waiting for approval (newest first, at most `limit`), each with its account,
 * its creator by name, the steps it still needs with their approvers by name, whether `operator`
 * can approve it, and when it expires. `total` counts every transaction waiting, `read` those
 * looked at. With `created_before`, the oldest `limit` waiting are read, not the newest (those
 * waiting longest are the ones sought), and only those created before it are looked into.
 */
export async function pendingApprovals(
  client: CustodyClient,
  operator: string,
  filter: { account_id?: number; limit: number; created_before?: Date },
  options: CallOptions = {},
): Promise<{ items: PendingApproval[]; total: number; read: number }> {
  const { listed, total } = await (filter.created_before === undefined ? newestWaiting : oldestWaiting)(client, filter, options);
  // The filters are checked again on what comes back: a service that ignored one cannot list other transactions.
  const waiting = listed
    .filter((tx) => tx.status === "PENDING_APPROVAL" && (filter.account_id === undefined || tx.account_id === filter.account_id))
    .filter((tx) => filter.created_before === undefined || timestampToDate(tx.created_on) < filter.created_before);
  const read = listed.length;
  if (waiting.length === 0) return { items: [], total, read };
  const users = new Map((await client.listAllUsers({ ...options, pageSize: 1000, maxPages: 10 })).map((user) => [user.id, user.username]));
  const accounts = new Map<number, Promise<Account>>();
  const accountOf = (id: number) => {
    let pending = accounts.get(id);
    if (!pending) {
      pending = client.getAccount(id, options);
      accounts.set(id, pending);
    }
    return pending;
  };
  const items = await Promise.all(
    waiting.map(async (transaction) => {
      const [account, status] = await Promise.all([accountOf(transaction.account_id), client.getRequestStatus(transaction.last_request, options)]);
      return {
        transaction,
        account,
        created_by: users.get(transaction.created_by) ?? null,
        rule: status.rule,
        missing: missingSteps(status),
        operator: approvalStanding(status, operator),
        expires_at: requestExpiresAt(status),
      };
    }),
  );
  return { items, total, read };
}

type WaitingFilter = { account_id?: number; limit: number };

function waitingPage(client: CustodyClient, filter: WaitingFilter, page: number, options: CallOptions, pageSize = filter.limit) {
  const query = {
    status: "PENDING_APPROVAL" as const,
    page,
    page_size: pageSize,
    ...(filter.account_id === undefined ? {} : { account_id: filter.account_id }),
  };
  return client.searchTransactions(query, options);
}

async function newestWaiting(client: CustodyClient, filter: WaitingFilter, options: CallOptions): Promise<{ listed: Transaction[]; total: number }> {
  const page = await waitingPage(client, filter, 1, options);
  return { listed: page.edges.map((edge) => edge.node), total: page.page_info.count };
}

/**
 * The oldest `limit` waiting: the list is newest first, so they are its end, on its last page and
 * the one before, asked at the page size the service answered the first with (a service may answer
 * fewer than asked). A transaction that starts waiting meanwhile pushes the oldest one page further:
 * a last page that says more follow is followed once. Three more reads at most, whatever the number waiting.
 */
async function oldestWaiting(client: CustodyClient, filter: WaitingFilter, options: CallOptions): Promise<{ listed: Transaction[]; total: number }> {
  const first = await waitingPage(client, filter, 1, options);
  const total = first.page_info.count;
  const pageSize = first.edges.length;
  if (!first.page_info.has_next_page || pageSize === 0) return { listed: first.edges.map((edge) => edge.node), total };
  const last = Math.ceil(total / pageSize);
  const read = (page: number) => waitingPage(client, filter, page, options, pageSize);
  const pages = await Promise.all([last - 1, last].filter((page) => page > 1).map(read));
  if (pages.at(-1)?.page_info.has_next_page === true) pages.push(await read(last + 1));
  const rows = [...(last - 1 > 1 ? [] : [first]), ...pages].flatMap((page) => page.edges.map((edge) => edge.node));
  // Pages read apart may overlap where the list moved between them: each transaction once.
  const listed = [...new Map(rows.map((tx) => [tx.id, tx])).values()];
  return { listed: listed.slice(-filter.limit), total };
}
