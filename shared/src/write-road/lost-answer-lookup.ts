import type { CustodyClient } from "../client/custody-client.js";
import type { Transaction } from "../schemas/transaction.js";
import { carriesReference } from "../operations/correlation-reference.js";
import type { PlannedWrite } from "./planned-write.js";

/** A candidate that could be the write, with the fields in which it is not what the write asked. */
export interface Candidate {
  id: number;
  differences: string[];
}

export type LookupResult =
  | { found: "one"; transaction: Transaction }
  | { found: "none" }
  /** Several transactions could be the write, or one that differs from it: a person must decide. */
  | { found: "candidates"; candidates: Candidate[] };

/** The newest transaction id on the account, taken before a write whose body carries no note. */
export async function transactionWatermark(client: CustodyClient, accountId: number, signal?: AbortSignal): Promise<number> {
  const page = await client.searchTransactions({ account_id: accountId, page: 1, page_size: 50 }, { signal });
  return page.edges.reduce((max, edge) => Math.max(max, edge.node.id), 0);
}

/** Operators' user ids by client: an id never changes, so the users are listed once per operator. */
const userIds = new WeakMap<CustodyClient, Map<string, number>>();

/** The operator's user id, to match a transaction's created_by; undefined when the users list does not show the operator. */
async function operatorUserId(client: CustodyClient, operator: string, signal?: AbortSignal): Promise<number | undefined> {
  const known = userIds.get(client)?.get(operator);
  if (known !== undefined) return known;
  const users = await client.listAllUsers({ signal, pageSize: 1000, maxPages: 100 });
  const id = users.find((user) => user.username === operator)?.id;
  if (id !== undefined) userIds.set(client, (userIds.get(client) ?? new Map<string, number>()).set(operator, id));
  return id;
}

/**
 * The verdict over the transactions that could be this write (on its account, by its creator):
 * found only when exactly one exists and every field the request named matches it. Several, or
 * one that differs, are named: never reported as this write.
 */
function verdict(plan: PlannedWrite, possible: readonly Transaction[], differences: (tx: Transaction) => string[], creatorKnown: boolean): LookupResult {
  if (possible.length === 0) return { found: "none" };
  const candidates = possible.map((tx) => ({ id: tx.id, differences: [...differences(tx), ...(creatorKnown ? [] : ["creator unknown (the users list does not show this operator)"])] }));
  const only = possible[0];
  if (possible.length === 1 && only !== undefined && candidates[0]?.differences.length === 0 && only.account_id === plan.account.id) return { found: "one", transaction: only };
  return { found: "candidates", candidates };
}

/**
 * Looks up a write whose answer was lost, by GETs only, comparing the whole request: by the
 * note's correlation reference (label search), by the operator's approval on the request, or, for
 * calls without a note, among the account's transactions newer than the watermark taken just
 * before the POST. Only transactions on the plan's account and by this operator are candidates.
 */
export async function lookUpLostAnswer(client: CustodyClient, plan: PlannedWrite, watermark: number | null, signal?: AbortSignal): Promise<LookupResult> {
  const call = { signal };
  const lost = plan.lostAnswer;
  if (lost.by === "approval") {
    const status = await client.getRequestStatus(lost.transaction.last_request, call);
    const approved = status.steps.some((step) => step.approvals.some((approval) => approval.username === plan.operator));
    return approved ? { found: "one", transaction: await client.getTransaction(lost.transaction.id, call) } : { found: "none" };
  }
  const creator = await operatorUserId(client, plan.operator, signal);
  const ours = (tx: Transaction) => tx.account_id === plan.account.id && (creator === undefined || tx.created_by === creator);
  if (lost.by === "reference") {
    const matches = await client.searchAllTransactions({ label: plan.correlation_id }, call);
    const carrying = matches.filter((tx) => carriesReference(tx.notes, plan.correlation_id));
    return verdict(plan, carrying.filter(ours), lost.differences, creator !== undefined);
  }
  const recent = await client.searchTransactions({ account_id: plan.account.id, page: 1, page_size: 200 }, call);
  const newer = recent.edges.map((edge) => edge.node).filter((tx) => tx.id > (watermark ?? 0) && ours(tx));
  // Among the newer transactions, those of the write's own kind on its own stake are candidates; the rest are other writes.
  const sameKind = newer.filter((tx) => !lost.differences(tx).some((difference) => difference.startsWith("type ") || difference.startsWith("stake account ")));
  return verdict(plan, sameKind, lost.differences, creator !== undefined);
}

/** How the candidates read in a message: "ids 12 (amount 3000000000 (asked 2000000000)), 14". */
export function describeCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((candidate) => (candidate.differences.length === 0 ? `${candidate.id}` : `${candidate.id} (${candidate.differences.join("; ")})`)).join(", ");
}
