import type { CustodyClient } from "../client/custody-client.js";
import type { Transaction } from "../schemas/transaction.js";
import type { PlannedWrite } from "./planned-write.js";

export type LookupResult = { found: "one"; transaction: Transaction } | { found: "none" } | { found: "several"; transactions: Transaction[] };

const STAKE_TRANSACTION_TYPE: Partial<Record<PlannedWrite["kind"], string>> = {
  solana_create_stake: "STAKE_CREATE_DELEGATE",
  solana_deactivate_stake: "STAKE_DEACTIVATE",
  solana_withdraw_stake: "STAKE_WITHDRAW",
  solana_delegate_stake: "STAKE_DELEGATE",
  solana_split_stake: "STAKE_SPLIT",
  solana_split_deactivate_stake: "STAKE_SPLIT_DEACTIVATE",
};

/** Writes whose body carries the note with the correlation reference. */
export function carriesNote(kind: PlannedWrite["kind"]): boolean {
  return kind === "send" || kind === "ethereum_stake" || kind.startsWith("polkadot_");
}

/** The newest transaction id on the account, taken before a write whose body carries no note. */
export async function transactionWatermark(client: CustodyClient, accountId: number, signal?: AbortSignal): Promise<number> {
  const page = await client.searchTransactions({ account_id: accountId, page: 1, page_size: 50 }, { signal });
  return page.edges.reduce((max, edge) => Math.max(max, edge.node.id), 0);
}

function verdict(matches: Transaction[]): LookupResult {
  if (matches.length === 0) return { found: "none" };
  if (matches.length === 1) return { found: "one", transaction: matches[0] as Transaction };
  return { found: "several", transactions: matches };
}

/** The operator's user id, to match a transaction's created_by; undefined when the users list does not show the operator. */
async function operatorUserId(client: CustodyClient, operator: string, signal?: AbortSignal): Promise<number | undefined> {
  const users = await client.listAllUsers({ signal, pageSize: 1000, maxPages: 100 });
  return users.find((user) => user.username === operator)?.id;
}

/** A transaction this write could have created: on the plan's account and, when the operator's id is known, created by it. */
function ofThisWrite(tx: Transaction, plan: PlannedWrite, creator: number | undefined): boolean {
  return tx.account_id === plan.account.id && (creator === undefined || tx.created_by === creator);
}

/**
 * Looks up a write whose outcome was ambiguous, by GETs only: by the note's correlation reference
 * (label search), by the operator's approval on the request, or, for Solana stake calls whose
 * body has no note, by type, creator and stake among the account's transactions newer than the
 * watermark. A reference found on another account or by another creator is not this write.
 */
export async function lookUpWrite(client: CustodyClient, plan: PlannedWrite, watermark: number | null, signal?: AbortSignal): Promise<LookupResult> {
  const call = { signal };
  if (carriesNote(plan.kind)) {
    const matches = await client.searchAllTransactions({ label: plan.correlation_id }, call);
    const carrying = matches.filter((tx) => tx.notes.some((note) => note.content.includes(plan.correlation_id) || note.title.includes(plan.correlation_id)));
    if (carrying.length === 0) return { found: "none" };
    const creator = await operatorUserId(client, plan.operator, signal);
    return verdict(carrying.filter((tx) => ofThisWrite(tx, plan, creator)));
  }
  if (plan.kind === "approve_transaction" && plan.transaction) {
    const status = await client.getRequestStatus(plan.transaction.last_request, call);
    const approved = status.steps.some((step) => step.approvals.some((approval) => approval.username === plan.operator));
    return approved ? { found: "one", transaction: await client.getTransaction(plan.transaction.id, call) } : { found: "none" };
  }
  const type = STAKE_TRANSACTION_TYPE[plan.kind];
  const creator = await operatorUserId(client, plan.operator, signal);
  const recent = await client.searchTransactions({ account_id: plan.account.id, page: 1, page_size: 200 }, call);
  const stakeAccount = plan.stake?.blockchain_state.pub_key;
  const matches = recent.edges
    .map((edge) => edge.node)
    .filter((tx) => tx.id > (watermark ?? 0) && tx.type === type && ofThisWrite(tx, plan, creator))
    .filter((tx) => {
      if (!stakeAccount) return true;
      const parameters = (tx.coin_fields as { tx_parameters?: { stake_account?: unknown } } | null)?.tx_parameters;
      return parameters?.stake_account === undefined || parameters.stake_account === stakeAccount;
    });
  return verdict(matches);
}
