import type { CustodyClient } from "../client/custody-client.js";
import type { GuardStore } from "../guard-store/guard-store.js";
import { repeatKey, type WriteTrace } from "../audit/write-traces.js";
import { finding } from "../schemas/finding.js";
import type { Transaction } from "../schemas/transaction.js";
import { describeCandidates, lookUpLostAnswer, unreadClause, type LookupResult } from "./lost-answer-lookup.js";
import type { PlannedWrite } from "./planned-write.js";
import { lookupsText, unclearAnswerText } from "./unknown-outcome-text.js";
import type { DuplicateVerdict } from "./road-types.js";
import { similarIds, workspaceEarlier, workspaceFindings } from "./workspace-duplicates.js";
import { identicalInWorkspace, type HistoryPrefetch, type WorkspaceHistory } from "./workspace-history.js";
import { errorMessage } from "../untrusted/error-message.js";
import { localText } from "../l10n/translate.js";

/** What the duplicate check needs besides the plan. */
export interface DuplicateContext {
  client: CustodyClient;
  store: GuardStore;
  fingerprint: string;
  since: Date;
  /** The window's length: the workspace's transactions are read back this far on the service's clock (null: not read). */
  windowMs: number | null;
  /** The window's read the plan already started, when it did. */
  prefetched?: HistoryPrefetch | undefined;
  signal?: AbortSignal | undefined;
  /** Whether a background look-up of this reference is under way in this process. */
  lookingUp(reference: string): boolean;
  /** Records that an earlier write whose outcome was unknown has been found. */
  recordFound(trace: WriteTrace, transaction: Transaction): Promise<void>;
}

/**
 * An earlier write as the check found it: with what a last look-up saw while its transaction is unknown, and whether
 * this process was looking it up when the store was read (a look-up that stops while the check reads on is not taken for none).
 */
type Earlier = WriteTrace & { seen?: string; lookingUp?: boolean };

/**
 * An earlier write whose transaction is not known yet, looked up once more from what the store
 * kept before its POST (its reference, or for a call without a note its stake and the account's
 * transactions since it was reserved): it may have landed since its answer was lost or its
 * process stopped, and then it must be named as the transaction it became, never offered as
 * unknown to be sent again.
 */
async function refreshed(ctx: DuplicateContext, plan: PlannedWrite, earlier: Earlier): Promise<Earlier> {
  if (earlier.transaction_id !== null) return earlier;
  // A write reserved before recognitions were kept: a request with a note is recognised as this plan's.
  const recognition =
    earlier.recognition ?? (plan.lostAnswer.by === "reference" ? { account_id: plan.account.id, lost: plan.lostAnswer, watermark: null } : undefined);
  if (recognition === undefined) return earlier;
  let result: LookupResult;
  try {
    result = await lookUpLostAnswer(ctx.client, { operator: earlier.operator, reference: earlier.reference, recognition }, ctx.signal);
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    return { ...earlier, seen: `a look-up of it just now failed (${errorMessage(error)})` };
  }
  if (result.found === "one") {
    await ctx.recordFound(earlier, result.transaction);
    return { ...earlier, status: "submitted", transaction_id: result.transaction.id };
  }
  if (result.found === "candidates")
    return { ...earlier, seen: `transactions ${describeCandidates(result.candidates)} could be it, none exactly and alone${unreadClause(result)}` };
  return { ...earlier, seen: `no transaction matching it exists yet, but it may still land${unreadClause(result)}` };
}

/** How an earlier identical write reads in a finding: its transaction, status and time, or that it may already be applied and what was found. */
async function describeEarlier(ctx: DuplicateContext, earlier: Earlier): Promise<string> {
  if (earlier.transaction_id === null) {
    const state =
      earlier.status === "in_flight"
        ? "had no answer (its process stopped, or is still sending it)"
        : `${unclearAnswerText(earlier)}, ${lookupsText(earlier, earlier.lookingUp ?? ctx.lookingUp(earlier.reference))}`;
    return (
      `an identical write sent at ${earlier.reserved_at} (reference ${earlier.reference}) ${state}: it ` +
      `may already be applied; ${earlier.seen ?? "it was not looked up again"}`
    );
  }
  let status = "status unknown";
  try {
    status = `status ${(await ctx.client.getTransaction(earlier.transaction_id, { signal: ctx.signal })).status}`;
  } catch {
    // The finding still names the transaction and its time; the status is only extra.
  }
  return `an identical write was submitted at ${earlier.reserved_at} as transaction ${earlier.transaction_id} (${status})`;
}

/**
 * Whether this write repeats one this operator already sent within the window: DUPLICATE_OF_RECENT
 * (block) naming the earlier write, unless `repeat_of` names exactly the newest earlier one
 * (REPEAT_ACKNOWLEDGED); a `repeat_of` that names anything else blocks.
 */
export async function checkDuplicate(ctx: DuplicateContext, plan: PlannedWrite): Promise<DuplicateVerdict> {
  const [traces, history] = await Promise.all([
    ctx.store
      .recentWrites({ operator: plan.operator, fingerprint: ctx.fingerprint, since: ctx.since })
      .then((read): Earlier[] => read.map((trace) => ({ ...trace, lookingUp: ctx.lookingUp(trace.reference) }))),
    readHistory(ctx, plan),
  ]);
  const standing = traces.find((trace) => trace.status !== "not_applied");
  const repeatOf = plan.request.repeat_of ?? null;
  const stored = standing === undefined ? undefined : await refreshed(ctx, plan, standing);
  const elsewhere = workspaceEarlier(history, plan, ctx.fingerprint, [
    ...traces.filter((trace) => trace.status !== "not_applied"),
    ...(stored ? [stored] : []),
  ]);
  const workspace = { warnings: workspaceFindings(history, plan), similar: similarIds(history) };
  const newest = elsewhere !== null && (stored === undefined || elsewhere.trace.reserved_at > stored.reserved_at) ? elsewhere.trace : stored;
  if (newest === undefined) {
    if (repeatOf === null) return { finding: null, earlier: null, ...workspace, storeRepeatOf: null };
    return {
      earlier: null,
      ...workspace,
      storeRepeatOf: repeatOf,
      finding: finding(
        "block",
        "REPEAT_OF_NOTHING",
        localText(
          'repeat_of is "{0}", but no identical write of operator {1} stands since {2}: leave repeat_of out',
          repeatOf,
          plan.operator,
          ctx.since.toISOString(),
        ),
        { repeat_of: repeatOf },
      ),
    };
  }
  const key = repeatKey(newest);
  const described = newest === elsewhere?.trace ? elsewhere.described : await describeEarlier(ctx, newest);
  // Acknowledging the newest identical write acknowledges the older ones: the store's reservation is told its own newest.
  const storeRepeatOf = repeatOf !== key ? repeatOf : stored === undefined ? null : repeatKey(stored);
  if (repeatOf === key) {
    if (newest.transaction_id !== null)
      return {
        earlier: newest,
        ...workspace,
        storeRepeatOf,
        finding: finding("info", "REPEAT_ACKNOWLEDGED", localText("sent again on purpose: {0}", described), { repeat_of: key }),
      };
    return {
      earlier: newest,
      ...workspace,
      storeRepeatOf,
      // A warning, shown in full wherever the write is shown: unlike a known repeat, this one may be a payment nobody meant.
      finding: finding(
        "warn",
        "REPEAT_ACKNOWLEDGED",
        localText("sent again on purpose although the earlier write may already be applied, so this MAY PAY TWICE: {0}", described),
        { repeat_of: key, may_pay_twice: true },
      ),
    };
  }
  const unknown = newest.transaction_id === null;
  const wrong =
    repeatOf === null
      ? ""
      : unknown && repeatOf === newest.reference
        ? " (repeat_of names it without acknowledging that it may pay twice)"
        : ` (repeat_of "${repeatOf}" does not name it)`;
  const next = unknown
    ? "this may pay twice. Look at the account's transactions first; only if the " +
      "person, told that the earlier write may already be applied, still wants it sent " +
      `again, run a new dry run with repeat_of "${key}"`
    : `this would send it twice. If the person means to send it again, run a new dry run with repeat_of "${key}"`;
  return {
    earlier: newest,
    ...workspace,
    storeRepeatOf,
    finding: finding("block", "DUPLICATE_OF_RECENT", localText("{0}{1}: {2}", described, wrong, next), {
      earlier_reference: newest.reference,
      ...(newest.transaction_id === null ? {} : { earlier_transaction_id: newest.transaction_id }),
      earlier_at: newest.reserved_at,
      repeat_of: key,
      ...(unknown ? { may_pay_twice: true } : {}),
    }),
  };
}

/** The workspace's identical transactions within the window, or why they could not be read. */
async function readHistory(ctx: DuplicateContext, plan: PlannedWrite): Promise<WorkspaceHistory | { unread: string }> {
  if (ctx.windowMs === null) return { identical: [], read: 0, compared: 0, complete: true };
  try {
    const since = new Date(ctx.client.serviceNow().getTime() - ctx.windowMs);
    return await identicalInWorkspace(ctx.client, plan, since, {
      signal: ctx.signal,
      prefetched: ctx.prefetched?.readFor(plan.account.id),
      saved: ctx.store.windows,
    });
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    return { unread: errorMessage(error) };
  }
}
