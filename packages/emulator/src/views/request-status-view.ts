import { evaluateRule, type RequestStatus } from "@custody/shared";
import { isoWithOffset } from "../clock/timestamps.js";
import type { RequestRow } from "../store/state-types.js";

/** GET /requests/{id}/status: each step with its quorum, approvers and who has approved. */
export function requestStatusView(request: RequestRow): RequestStatus {
  const progress = evaluateRule(
    { creators: [], steps: request.steps },
    request.approvals.map((approval) => approval.username),
  );
  const approvalOf = new Map(request.approvals.map((approval) => [approval.username, approval]));
  return {
    id: request.id,
    type: request.type,
    status: request.status,
    transaction_id: request.transaction_id,
    user_id: request.user_id,
    created_by: request.created_by,
    created_on: isoWithOffset(request.created_on_ms),
    expired_at: isoWithOffset(request.expired_at_ms),
    is_complete: request.status !== "PENDING_APPROVAL",
    rule: request.rule as RequestStatus["rule"],
    steps: progress.steps.map((step) => ({
      index: step.index,
      quorum: step.quorum,
      approvers: step.approvers,
      approvals: step.approved_by.flatMap((username) => {
        const approval = approvalOf.get(username);
        return approval ? [{ username, is_api: approval.is_api, approved_on: isoWithOffset(approval.approved_on_ms) }] : [];
      }),
      is_complete: step.is_complete,
    })),
    rejected_by: request.rejected_by,
  };
}
