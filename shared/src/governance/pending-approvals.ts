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
 * can approve it, and when it expires. `total` counts every transaction waiting. With
 * `created_before`, only those waiting since before it are looked into (their governance read).
 */
export async function pendingApprovals(
  client: CustodyClient,
  operator: string,
  filter: { account_id?: number; limit: number; created_before?: Date },
  options: CallOptions = {},
): Promise<{ items: PendingApproval[]; total: number }> {
  const page = await client.searchTransactions(
    { status: "PENDING_APPROVAL", page: 1, page_size: filter.limit, ...(filter.account_id === undefined ? {} : { account_id: filter.account_id }) },
    options,
  );
  // The filters are checked again on what comes back: a service that ignored one cannot list other transactions.
  const waiting = page.edges
    .map((edge) => edge.node)
    .filter((tx) => tx.status === "PENDING_APPROVAL" && (filter.account_id === undefined || tx.account_id === filter.account_id))
    .filter((tx) => filter.created_before === undefined || timestampToDate(tx.created_on) < filter.created_before);
  if (waiting.length === 0) return { items: [], total: page.page_info.count };
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
  return { items, total: page.page_info.count };
}
