import type { RuleMember } from "../schemas/governance.js";
import type { RequestStatus } from "../schemas/request-status.js";
import { timestampToDate } from "../schemas/primitives.js";

/** A step short of its quorum: how many approvals it still needs, and from whom (those who have not approved). */
export interface MissingStep {
  index: number;
  quorum: number;
  missing: number;
  approvers: RuleMember[];
  approved_by: string[];
}

/** Whether an operator can add its approval to a request, and why not. */
export type ApprovalStanding = "can_approve" | "not_an_approver" | "already_approved";

/** The steps of a request still short of their quorum. */
export function missingSteps(status: RequestStatus): MissingStep[] {
  return status.steps
    .filter((step) => !step.is_complete)
    .map((step) => {
      const approved = new Set(step.approvals.map((approval) => approval.username));
      return {
        index: step.index,
        quorum: step.quorum,
        missing: Math.max(0, step.quorum - step.approvals.length),
        approvers: step.approvers.filter((member) => !approved.has(member.username)),
        approved_by: [...approved],
      };
    });
}

/** May this operator approve the request: listed in one of its steps, and not yet approved. */
export function approvalStanding(status: RequestStatus, operator: string): ApprovalStanding {
  if (!status.steps.some((step) => step.approvers.some((member) => member.username === operator))) return "not_an_approver";
  if (status.steps.some((step) => step.approvals.some((approval) => approval.username === operator))) return "already_approved";
  return "can_approve";
}

/** When the request expires without its quorum. */
export function requestExpiresAt(status: RequestStatus): Date {
  return timestampToDate(status.expired_at);
}
