import type { WriteTrace } from "../audit/write-traces.js";
import { carriesReference, referencesIn } from "../kinds/kit/correlation-reference.js";
import { finding, type Finding } from "../schemas/finding.js";
import { timestampToDate } from "../schemas/primitives.js";
import type { PlannedWrite } from "./planned-write.js";
import { HISTORY_MAX_READ, type IdenticalTransaction, type WorkspaceHistory } from "./workspace-history.js";
import { localText } from "../l10n/translate.js";

/** At most this many similar transactions are named in a warning; the rest are counted. */
const NAMED_SIMILAR = 3;

function createdAt(match: IdenticalTransaction): string {
  return timestampToDate(match.transaction.created_on).toISOString();
}

function who(match: IdenticalTransaction): string {
  return match.creator ?? `user ${match.transaction.created_by}`;
}

/**
 * The newest of this operator's identical transactions that the store does not know (made by
 * another process, store or machine of the same operator), as a trace the duplicate check can name
 * and `repeat_of` can acknowledge by its transaction id; null when there is none.
 */
export function workspaceEarlier(
  history: WorkspaceHistory | { unread: string },
  plan: Pick<PlannedWrite, "operator" | "identity">,
  fingerprint: string,
  known: readonly WriteTrace[],
): { trace: WriteTrace; described: string } | null {
  if ("unread" in history) return null;
  const ids = new Set(known.flatMap((trace) => (trace.transaction_id === null ? [] : [trace.transaction_id])));
  const match = history.identical.find(
    (candidate) =>
      candidate.ours && !ids.has(candidate.transaction.id) && !known.some((trace) => carriesReference(candidate.transaction.notes, trace.reference)),
  );
  if (match === undefined) return null;
  const tx = match.transaction;
  // A write of this store whose answer was lost, and whose body carries no reference, may be this very transaction.
  const lost = known.find((trace) => trace.transaction_id === null);
  const trace: WriteTrace = {
    reference: referencesIn(tx.notes).at(-1) ?? "none",
    fingerprint,
    operator: plan.operator,
    tool: plan.identity.tool,
    reserved_at: createdAt(match),
    status: "submitted",
    transaction_id: tx.id,
    repeat_of: null,
  };
  return {
    trace,
    described:
      `an identical write of operator ${plan.operator} was created at ${trace.reserved_at} as ` +
      `transaction ${tx.id} (status ${tx.status}), found in the workspace's transactions ` +
      (lost === undefined
        ? "(made outside this guard's store: another process, extension or machine)"
        : `(it may be the write sent at ${lost.reserved_at} with reference ${lost.reference}, whose outcome was unknown)`),
  };
}

/**
 * What the workspace's history adds besides this operator's duplicates: identical transactions of
 * other operators or people (SIMILAR_RECENT, a warning naming them), a window saved in the store that
 * was refused (a warning: its seal did not verify), a read that did not reach the window's start (a
 * warning), or one that failed (a block: whether the write was already made is then unknown).
 */
export function workspaceFindings(history: WorkspaceHistory | { unread: string }, plan: Pick<PlannedWrite, "operator">): Finding[] {
  if ("unread" in history) {
    return [
      finding(
        "block",
        "WORKSPACE_HISTORY_UNREAD",
        localText(
          "the account's recent transactions could not be read ({0}): whether this write was already made is unknown. Nothing was sent; try again",
          history.unread,
        ),
        { error: history.unread },
      ),
    ];
  }
  const findings: Finding[] = [];
  const similar = history.identical.filter((match) => !match.ours);
  const newest = similar[0];
  if (newest !== undefined) {
    const named = similar
      .slice(0, NAMED_SIMILAR)
      .map((match) => `transaction ${match.transaction.id} created by ${who(match)} at ${createdAt(match)} (status ${match.transaction.status})`);
    const more = similar.length > NAMED_SIMILAR ? ` and ${similar.length - NAMED_SIMILAR} more` : "";
    findings.push(
      finding(
        "warn",
        "SIMILAR_RECENT",
        localText(
          "an identical write was made by someone other than operator {0}: {1}{2}. Check with them that this is not the same payment made twice",
          plan.operator,
          named.join("; "),
          more,
        ),
        {
          transaction_id: newest.transaction.id,
          created_by: who(newest),
          created_at: createdAt(newest),
          status: newest.transaction.status,
          count: similar.length,
        },
      ),
    );
  }
  if (history.savedRefused !== undefined) {
    findings.push(
      finding(
        "warn",
        "SAVED_WINDOW_REFUSED",
        localText(
          "the guard's store held a saved read of this account's transactions that was not used ({0}): the window was read " +
            "whole from the workspace instead. If no one changed the seal key, someone or something may have edited the store",
          history.savedRefused,
        ),
        { reason: history.savedRefused },
      ),
    );
  }
  if (!history.complete) {
    findings.push(
      finding(
        "warn",
        "WORKSPACE_HISTORY_PARTIAL",
        localText(
          "only the account's newest {0} transactions of the window were compared (a read stops at {1}); older " +
            "ones within the window were not read for identical writes",
          history.compared,
          HISTORY_MAX_READ,
        ),
        { compared: history.compared },
      ),
    );
  }
  return findings;
}

/** The ids of the identical transactions of other operators or people, newest first. */
export function similarIds(history: WorkspaceHistory | { unread: string }): number[] {
  return "unread" in history ? [] : history.identical.filter((match) => !match.ours).map((match) => match.transaction.id);
}

/**
 * An identical transaction of someone else created after the dry run the person confirmed: they
 * never saw it named, so the confirmation stops (SIMILAR_SINCE_DRY_RUN) and a new dry run shows it.
 */
export function similarSinceDryRun(similar: readonly number[], seen: readonly number[]): Finding | null {
  const unseen = similar.filter((id) => !seen.includes(id));
  if (unseen.length === 0) return null;
  return finding(
    "block",
    "SIMILAR_SINCE_DRY_RUN",
    localText(
      "an identical write by someone other than this operator was made since the dry run (transaction{0} " +
        "{1}): the confirmation did not see it. Nothing was sent; run a new dry run, which names it",
      unseen.length > 1 ? "s" : "",
      unseen.join(", "),
    ),
    { transaction_ids: unseen.join(",") },
  );
}
