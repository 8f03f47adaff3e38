import {
  delimitUntrusted,
  describeAmount,
  formatAmount,
  lookedUpBy,
  memberNames,
  renderText,
  sanitizeUntrustedText,
  whenText,
  type CommitResult,
  type Currency,
  type Transaction,
} from "@custody/shared";
import type { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { writeResult, type SubmittedTransaction } from "./write-output.js";

type Submitted = Extract<CommitResult, { status: "submitted" }>;

/** The transaction as a submission answers it: what it is, where it stands, and once broadcast its fee and hash. */
function transactionBrief(tx: Transaction, currency: Currency, stakeUid: string | null): z.input<typeof SubmittedTransaction> {
  return {
    id: tx.id,
    type: tx.type,
    status: tx.status,
    amount: formatAmount(tx.amount, currency),
    ...(tx.fees === null ? {} : { fees: formatAmount(tx.fees, currency) }),
    ...(tx.tx_hash === null ? {} : { tx_hash: sanitizeUntrustedText(tx.tx_hash) }),
    ...(tx.broadcast_on === null ? {} : { broadcast_on: tx.broadcast_on }),
    ...(stakeUid === null ? {} : { stake_uid: sanitizeUntrustedText(stakeUid) }),
  };
}

function standingLine(result: Submitted, tx: Transaction, now: Date): string {
  const waiting = result.standing?.waiting;
  if (waiting) {
    const needs = waiting.missing
      .map((step) => `step ${step.index + 1} needs ${step.missing} of ${delimitUntrusted("approvers", memberNames(step.approvers))}`)
      .join("; ");
    return `Waiting for approval: ${needs || "no step short of its quorum"}; expires ${whenText(waiting.expires_at, now)}.`;
  }
  if (tx.tx_hash !== null)
    return `Broadcast: fee ${tx.fees === null ? "not reported" : describeAmount(tx.fees, result.plan.currency)}, tx_hash ${sanitizeUntrustedText(tx.tx_hash)}.`;
  return `Not broadcast yet (${tx.status}): get_transaction ${tx.id} shows its fee and hash once it is.`;
}

/** The Solana stake the write created: its uid, or its stake account until the account's stakes list it. */
function newStakeLine(result: Submitted): string {
  const stake = result.standing?.new_stake;
  if (stake === undefined) return "";
  const account = sanitizeUntrustedText(stake.stake_account);
  return stake.uid === null
    ? `New stake account ${account}: list_solana_stakes gives its uid once it is broadcast.`
    : `New stake: uid ${sanitizeUntrustedText(stake.uid)} (stake account ${account}).`;
}

/**
 * A submission refers to its dry run (by reference) rather than repeating it: the transaction,
 * its fee and hash once broadcast, or the approvers still needed and the expiry.
 */
export function submittedAnswer(result: Submitted, now: Date): CallToolResult {
  const tx = result.standing?.transaction ?? result.transaction;
  const waiting = result.standing?.waiting;
  const found = result.looked_up
    ? ` The service's answer did not say whether it was applied; the transaction was found ${lookedUpBy(result.plan.lostAnswer)} and was not sent again.`
    : "";
  const problems = [result.raced?.message, result.standing?.problem, result.audit_problem === null ? null : renderText(result.audit_problem)].filter(
    (problem): problem is string => typeof problem === "string",
  );
  return writeResult(
    {
      status: "submitted",
      reference: result.plan.correlation_id,
      transaction: transactionBrief(tx, result.plan.currency, result.standing?.new_stake?.uid ?? null),
      ...(waiting
        ? {
            waiting: {
              missing: waiting.missing.map((step) => ({
                step: step.index + 1,
                needs: step.missing,
                of: step.approvers.map((member) => sanitizeUntrustedText(member.username)),
              })),
              expires_at: waiting.expires_at.toISOString(),
            },
          }
        : {}),
      ...(result.looked_up ? { looked_up: true } : {}),
      ...(problems.length === 0 ? {} : { warning: problems.join("; ") }),
    },
    [
      `SUBMITTED (the dry run ${result.plan.correlation_id}): transaction ${tx.id} ${tx.type} ${tx.status}.${found}`,
      standingLine(result, tx, now),
      newStakeLine(result),
      ...problems.map((problem) => `WARNING: ${problem}`),
    ]
      .filter((line) => line !== "")
      .join("\n"),
  );
}
