import {
  delimitUntrusted,
  describeAmount,
  durationText,
  formatAmount,
  memberNames,
  sanitizeUntrustedText,
  timestampToDate,
  whenText,
  type Currency,
  type PendingApproval,
} from "@custody/shared";
import { z } from "zod";
import { CreatorView } from "./creator-view.js";
import { AccountRef, AmountView, MemberView, memberView } from "./view-schemas.js";

/** A transaction waiting for approval, as list_pending_approvals gives it. */
export const PendingApprovalView = z.object({
  transaction_id: z.number(),
  type: z.string(),
  account: AccountRef,
  amount: AmountView,
  max_fees: AmountView,
  recipient: z.string(),
  notes: z.array(z.object({ title: z.string(), content: z.string() })),
  created_by: CreatorView,
  created_on: z.string(),
  rule: z.string(),
  missing: z.array(z.object({ step: z.number(), needs: z.number(), of: z.array(MemberView) })),
  operator_can_approve: z.boolean(),
  operator_standing: z.enum(["can_approve", "not_an_approver", "already_approved"]),
  expires_at: z.string(),
});

const STANDING_TEXT = {
  can_approve: "can approve it (approve_transaction)",
  not_an_approver: "cannot approve it: not an approver in its rule",
  already_approved: "has already approved it",
} as const;

/** "step 2 needs 1 of <untrusted ...>dana.approver (person), ...</untrusted>" for each step still short. */
function missingText(item: PendingApproval): string {
  return (
    item.missing.map((step) => `step ${step.index + 1} needs ${step.missing} of ${delimitUntrusted("approvers", memberNames(step.approvers))}`).join("; ") ||
    "no step short of its quorum"
  );
}

/** A transaction waiting for approval, for structuredContent: amounts in both units, people by name. */
export function pendingApprovalView(item: PendingApproval, currency: Currency): z.infer<typeof PendingApprovalView> {
  const tx = item.transaction;
  return {
    transaction_id: tx.id,
    type: tx.type,
    account: { id: item.account.id, name: sanitizeUntrustedText(item.account.name) },
    amount: formatAmount(tx.amount, currency),
    max_fees: formatAmount(tx.max_fees, currency),
    recipient: sanitizeUntrustedText(tx.recipient),
    notes: tx.notes.map((note) => ({ title: sanitizeUntrustedText(note.title), content: sanitizeUntrustedText(note.content) })),
    created_by: { id: tx.created_by, username: item.created_by === null ? null : sanitizeUntrustedText(item.created_by) },
    created_on: tx.created_on,
    rule: item.rule,
    missing: missingView(item),
    operator_can_approve: item.operator === "can_approve",
    operator_standing: item.operator,
    expires_at: item.expires_at.toISOString(),
  };
}

/** One transaction waiting for approval as a line of text; workspace text delimited. */
export function pendingApprovalLine(item: PendingApproval, currency: Currency, operator: string, now: Date): string {
  const tx = item.transaction;
  const to = tx.recipient ? ` to ${sanitizeUntrustedText(tx.recipient)}` : "";
  const notes = tx.notes.map((note, index) => ` ${delimitUntrusted(`notes[${index}]`, `${note.title}: ${note.content}`)}`).join("");
  const creator = item.created_by === null ? `user ${tx.created_by}` : delimitUntrusted("created_by", item.created_by);
  const needs = missingText(item);
  return [
    `#${tx.id} ${tx.type} on ${delimitUntrusted("account", item.account.name)} (${item.account.id}): ` +
      `${describeAmount(tx.amount, currency)}${to}, max fees ${describeAmount(tx.max_fees, currency)}${notes}.`,
    `  Created by ${creator}; ${item.rule} rule: ${needs}; ${operator} ${STANDING_TEXT[item.operator]}; expires ${whenText(item.expires_at, now)}.`,
  ].join("\n");
}

/** The steps a waiting transaction still needs, approvers by name. */
function missingView(item: PendingApproval): z.infer<typeof PendingApprovalView>["missing"] {
  return item.missing.map((step) => ({ step: step.index + 1, needs: step.missing, of: step.approvers.map(memberView) }));
}

/** What a transaction waiting longer than it should shows of pendingApprovalView: short, with who is still needed. */
export const StuckApprovalView = PendingApprovalView.pick({
  transaction_id: true,
  created_on: true,
  created_by: true,
  account: true,
  type: true,
  amount: true,
  missing: true,
  expires_at: true,
});

export function stuckApprovalView(item: PendingApproval, currency: Currency): z.infer<typeof StuckApprovalView> {
  const { transaction_id, created_on, created_by, account, type, amount, missing, expires_at } = pendingApprovalView(item, currency);
  return { transaction_id, created_on, created_by, account, type, amount, missing, expires_at };
}

/** "#12 SEND on sol-cold (2), waiting 1 d 1 h: 2 SOL (...); step 2 needs 1 of ...; expires ..." */
export function stuckApprovalLine(item: PendingApproval, currency: Currency, now: Date): string {
  const tx = item.transaction;
  const waiting = durationText((now.getTime() - timestampToDate(tx.created_on).getTime()) / 1000);
  const needs = missingText(item);
  return (
    `#${tx.id} ${tx.type} on ${delimitUntrusted("account", item.account.name)} ` +
    `(${item.account.id}), waiting ${waiting}: ` +
    `${describeAmount(tx.amount, currency)}; ${needs}; expires ` +
    `${whenText(item.expires_at, now)}`
  );
}
