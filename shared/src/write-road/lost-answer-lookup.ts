import type { CustodyClient } from "../client/custody-client.js";
import type { Transaction } from "../schemas/transaction.js";
import { carriesReference } from "../kinds/kit/correlation-reference.js";
import { userIdOf } from "../governance/workspace-users.js";
import { transactionDifferences, type WriteRecognition } from "../kinds/kit/lost-answer-fields.js";
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
  /** `unread`: what the look-up could not read (it reached its cap), said in the finding; the outcome stays unknown. */
  | { found: "none"; unread?: string }
  /** Several transactions could be the write, or one that differs from it, or one found by a look-up that could not read all: a person must decide. */
  | { found: "candidates"; candidates: Candidate[]; unread?: string };

/** A stake call's look-up reads the account's transactions newer than its watermark in pages of this size, newest first. */
const NEWER_PAGE_SIZE = 200;
/** At most this many pages: 2,000 transactions since the write was reserved, a bounded read on the busiest account. */
const NEWER_MAX_PAGES = 10;

/** The newest transaction id on the account, taken before a write whose body carries no note. */
async function transactionWatermark(client: CustodyClient, accountId: number, signal?: AbortSignal): Promise<number> {
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

/**
 * The verdict over the transactions that could be this write (on its account, by its creator):
 * found only when exactly one exists and every field the request named matches it. Several, or
 * one that differs, are named: never reported as this write.
 */
function verdict(
  accountId: number,
  possible: readonly Transaction[],
  differences: (tx: Transaction) => string[],
  creatorKnown: boolean,
  unread?: string,
): LookupResult {
  const partly = unread === undefined ? {} : { unread };
  if (possible.length === 0) return { found: "none", ...partly };
  const candidates = possible.map((tx) => ({
    id: tx.id,
    differences: [...differences(tx), ...(creatorKnown ? [] : ["creator unknown (the users list does not show this operator)"])],
  }));
  const only = possible[0];
  // A read that stopped at its cap cannot say the match is alone: an identical write may be among the transactions it did not read.
  if (unread === undefined && possible.length === 1 && only !== undefined && candidates[0]?.differences.length === 0 && only.account_id === accountId)
    return { found: "one", transaction: only };
  return { found: "candidates", candidates, ...partly };
}

/**
 * The account's transactions newer than the watermark: pages of 200, newest first, until one
 * reaches the watermark or the last page, at most 10. A transaction created meanwhile pushes the
 * rest down a place, so one can be read twice (kept once), never skipped. `unread` says what was
 * left when the cap was reached.
 */
async function transactionsSince(
  client: CustodyClient,
  accountId: number,
  watermark: number,
  signal?: AbortSignal,
): Promise<{ transactions: Transaction[]; unread?: string }> {
  const newer = new Map<number, Transaction>();
  for (let page = 1; page <= NEWER_MAX_PAGES; page += 1) {
    const read = await client.searchTransactions({ account_id: accountId, page, page_size: NEWER_PAGE_SIZE }, { signal });
    const rows = read.edges.map((edge) => edge.node);
    for (const tx of rows) if (tx.id > watermark) newer.set(tx.id, tx);
    if (!read.page_info.has_next_page || rows.length < NEWER_PAGE_SIZE || rows.some((tx) => tx.id <= watermark)) return { transactions: [...newer.values()] };
  }
  const unread =
    `the look-up read only the newest ${NEWER_MAX_PAGES * NEWER_PAGE_SIZE} transactions of ` +
    `account ${accountId} (its cap); more were made since the write was reserved (after ` +
    `transaction ${watermark}), and it may be among those`;
  return { transactions: [...newer.values()], unread };
}

/**
 * Looks up a write whose answer was lost, by GETs only, comparing the whole request: by the
 * note's correlation reference (label search), by the operator's approval on the request, or, for
 * calls without a note, among the account's transactions newer than the watermark taken before
 * the write was reserved (pages newest first down to the watermark, at most 10 of 200: a bounded
 * read, never the account's whole history; at the cap the outcome stays unknown and says so). Only
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
  const creator = await userIdOf(client, write.operator, signal);
  const ours = (tx: Transaction) => tx.account_id === accountId && (creator === undefined || tx.created_by === creator);
  if (lost.by === "reference") {
    const matches = await client.searchAllTransactions({ label: write.reference }, call);
    const carrying = matches.filter((tx) => carriesReference(tx.notes, write.reference));
    return verdict(accountId, carrying.filter(ours), differences, creator !== undefined);
  }
  const since = await transactionsSince(client, accountId, watermark ?? 0, signal);
  const newer = since.transactions.filter(ours);
  // Among the newer transactions, those of the write's own kind on its own stake are candidates; the rest are other writes.
  const sameKind = newer.filter((tx) => !differences(tx).some((difference) => difference.startsWith("type ") || difference.startsWith("stake account ")));
  return verdict(accountId, sameKind, differences, creator !== undefined, since.unread);
}

/** How the candidates read in a message: "ids 12 (amount 3000000000 (asked 2000000000)), 14". */
export function describeCandidates(candidates: readonly Candidate[]): string {
  return candidates
    .map((candidate) => (candidate.differences.length === 0 ? `${candidate.id}` : `${candidate.id} (${candidate.differences.join("; ")})`))
    .join(", ");
}

/** What a look-up that reached its cap could not read, as a clause to end a message with ("" when it read all). */
export function unreadClause(result: LookupResult): string {
  return result.found !== "one" && result.unread !== undefined ? `; ${result.unread}` : "";
}
