import type { Account } from "../schemas/account.js";
import type { Transaction, TransactionStatus } from "../schemas/transaction.js";
import type { CustodyClient } from "../client/custody-client.js";

/** What reading the workspace takes: the client, and the signal that cancels the reads. */
export interface WorkspaceReads {
  client: CustodyClient;
  signal?: AbortSignal | undefined;
}

/** Statuses of a transaction that exists but is not yet broadcast nor ended: it may still draw on the account. */
export const UNFINISHED_STATUSES = ["PENDING_APPROVAL", "APPROVED", "SIGNED"] as const satisfies readonly TransactionStatus[];

const PAGE_SIZE = 1000;
const MAX_PAGES = 10;

export type UnfinishedListing = { transactions: Transaction[] } | { failure: string };

/**
 * The account's unfinished transactions (every account's, for null), by GET /transactions filtered on account_id and status
 * (filters the emulator has; the spec names only label). The filters are checked again on what
 * comes back, so a service that ignored one cannot make another account's transactions count.
 * The statuses are read in their order of progress (pending approval, approved, signed): a
 * transaction that moves on between two reads is seen in a later one or has been broadcast, so
 * a balance read after this listing holds it. A listing that fails says why; a cancelled one throws.
 */
export async function unfinishedTransactions(ctx: WorkspaceReads, accountId: number | null): Promise<UnfinishedListing> {
  const byId = new Map<number, Transaction>();
  try {
    for (const status of UNFINISHED_STATUSES) {
      const filter = accountId === null ? { status } : { account_id: accountId, status };
      const page = await ctx.client.searchAllTransactions(filter, { signal: ctx.signal, pageSize: PAGE_SIZE, maxPages: MAX_PAGES });
      for (const tx of page) {
        if ((accountId === null || tx.account_id === accountId) && (UNFINISHED_STATUSES as readonly string[]).includes(tx.status)) byId.set(tx.id, tx);
      }
    }
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    return { failure: (error as Error).message };
  }
  return { transactions: [...byId.values()].sort((a, b) => a.id - b.id) };
}

/** Polkadot staking operations as the request's coin_fields name them (the release notes also write SET_PAYEE). */
const POLKADOT_STAKING_OPERATIONS = new Set(["BOND", "BONDEXTRA", "UNBOND", "REBOND", "WITHDRAWUNBONDED", "SETPAYEE"]);

function stakingOperation(name: unknown): string | undefined {
  if (typeof name !== "string") return undefined;
  const folded = name.toUpperCase().replace(/_/g, "");
  return POLKADOT_STAKING_OPERATIONS.has(folded) ? folded : undefined;
}

/**
 * The operation a transaction performs: a Polkadot staking operation named by its coin_fields
 * `type` or by its own `type` (spelled with or without underscores) first, since a service may
 * report a bond extra under a generic transaction type; else its type.
 */
export function operationOf(tx: Transaction): string {
  return stakingOperation((tx.coin_fields as { type?: unknown } | null)?.type) ?? stakingOperation(tx.type) ?? tx.type;
}

/** The call data of a contract call (coin_fields.contract_interaction.contract_data), when the transaction shows it. */
export function contractDataOf(tx: Transaction): string | undefined {
  const data = (tx.coin_fields as { contract_interaction?: { contract_data?: unknown } } | null)?.contract_interaction?.contract_data;
  return typeof data === "string" ? data : undefined;
}

/**
 * The account's unfinished transactions, then the account read again by id: a transaction
 * broadcast while they were listed is then in the balances (and may be counted twice, never missed).
 */
export async function accountAfterUnfinished(ctx: WorkspaceReads, account: Account): Promise<{ account: Account; listing: UnfinishedListing }> {
  const listing = await unfinishedTransactions(ctx, account.id);
  return { account: await ctx.client.getAccount(account.id, { signal: ctx.signal }), listing };
}
