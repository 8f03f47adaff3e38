import type { CustodyClient } from "../client/custody-client.js";
import type { Transaction } from "../schemas/transaction.js";
import { carriesReference } from "../operations/correlation-reference.js";
import { transactionDifferences, type WriteRecognition } from "../writes/lost-answer-fields.js";
import type { PlannedWrite } from "./planned-write.js";

/** A write whose answer may be lost, as any process knows it from the guard's store. */
export interface UnansweredWrite {
  operator: string;
  reference: string;
  recognition: WriteRecognition;
}

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

/** What the store keeps with a planned write before its POST; reads the account's newest transaction for a write without a note. */
export async function recognitionOf(client: CustodyClient, plan: PlannedWrite, signal?: AbortSignal): Promise<WriteRecognition> {
  const watermark = plan.lostAnswer.by === "new_transactions" ? await transactionWatermark(client, plan.account.id, signal) : null;
  return { account_id: plan.account.id, lost: plan.lostAnswer, watermark };
}

/** The write as the look-ups know it. */
export function unansweredWrite(plan: PlannedWrite, recognition: WriteRecognition): UnansweredWrite {
  return { operator: plan.operator, reference: plan.correlation_id, recognition };
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
function verdict(accountId: number, possible: readonly Transaction[], differences: (tx: Transaction) => string[], creatorKnown: boolean): LookupResult {
  if (possible.length === 0) return { found: "none" };
  const candidates = possible.map((tx) => ({ id: tx.id, differences: [...differences(tx), ...(creatorKnown ? [] : ["creator unknown (the users list does not show this operator)"])] }));
  const only = possible[0];
  if (possible.length === 1 && only !== undefined && candidates[0]?.differences.length === 0 && only.account_id === accountId) return { found: "one", transaction: only };
  return { found: "candidates", candidates };
}

/**
 * Looks up a write whose answer was lost, by GETs only, comparing the whole request: by the
 * note's correlation reference (label search), by the operator's approval on the request, or, for
 * calls without a note, among the account's transactions newer than the watermark taken before
 * the write was reserved (one page: a bounded read, never the account's whole history). Only
 * transactions on the write's account and by its operator are candidates. Needs nothing but what
 * the store keeps, so a process that did not send the write can look it up.
 */
export async function lookUpLostAnswer(client: CustodyClient, write: UnansweredWrite, signal?: AbortSignal): Promise<LookupResult> {
  const call = { signal };
  const { lost, account_id: accountId, watermark } = write.recognition;
  if (lost.by === "approval") {
    const status = await client.getRequestStatus(lost.request_id, call);
    const approved = status.steps.some((step) => step.approvals.some((approval) => approval.username === write.operator));
    return approved ? { found: "one", transaction: await client.getTransaction(lost.transaction_id, call) } : { found: "none" };
  }
  const differences = (tx: Transaction) => transactionDifferences(lost.expected, tx);
  const creator = await operatorUserId(client, write.operator, signal);
  const ours = (tx: Transaction) => tx.account_id === accountId && (creator === undefined || tx.created_by === creator);
  if (lost.by === "reference") {
    const matches = await client.searchAllTransactions({ label: write.reference }, call);
    const carrying = matches.filter((tx) => carriesReference(tx.notes, write.reference));
    return verdict(accountId, carrying.filter(ours), differences, creator !== undefined);
  }
  const recent = await client.searchTransactions({ account_id: accountId, page: 1, page_size: 200 }, call);
  const newer = recent.edges.map((edge) => edge.node).filter((tx) => tx.id > (watermark ?? 0) && ours(tx));
  // Among the newer transactions, those of the write's own kind on its own stake are candidates; the rest are other writes.
  const sameKind = newer.filter((tx) => !differences(tx).some((difference) => difference.startsWith("type ") || difference.startsWith("stake account ")));
  return verdict(accountId, sameKind, differences, creator !== undefined);
}

/** How the candidates read in a message: "ids 12 (amount 3000000000 (asked 2000000000)), 14". */
export function describeCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((candidate) => (candidate.differences.length === 0 ? `${candidate.id}` : `${candidate.id} (${candidate.differences.join("; ")})`)).join(", ");
}
