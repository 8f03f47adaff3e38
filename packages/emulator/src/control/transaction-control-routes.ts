import { findWorkspaceUser, pathId, requireTransaction } from "../domain/lookups.js";
import { approveTransaction, requireRequest } from "../domain/transactions/approve-transaction.js";
import { endTransaction } from "../domain/transactions/end-transaction.js";
import { conflict, forbidden } from "../domain/domain-error.js";
import { parseBody } from "../http/parse-body.js";
import type { RouteTable } from "../http/route-def.js";
import { transactionReply } from "../routes/transaction-routes.js";
import { HumanDecisionBody } from "./control-schemas.js";

/** Human approvers: approve or reject a transaction waiting for approval. */
export function addTransactionControlRoutes(routes: RouteTable): void {
  routes.post("/transactions/:transaction_id/approve", async (ctx, request) => {
    const body = parseBody(HumanDecisionBody, request.body);
    const id = pathId(request.params.transaction_id, "transaction");
    const row = await ctx.commit((tx) => {
      const user = findWorkspaceUser(tx, body.username, false);
      return approveTransaction(tx, id, { username: body.username, is_api: false, user_id: user?.id ?? 0 });
    });
    return transactionReply(ctx, row);
  });

  routes.post("/transactions/:transaction_id/reject", async (ctx, request) => {
    const body = parseBody(HumanDecisionBody, request.body);
    const id = pathId(request.params.transaction_id, "transaction");
    const row = await ctx.commit((tx) => {
      const current = requireTransaction(tx, id);
      if (current.status !== "PENDING_APPROVAL") {
        throw conflict("NotPendingApproval", `transaction ${id} is ${current.status}, not PENDING_APPROVAL: it can no longer be rejected`);
      }
      const listed = requireRequest(tx, current).steps.some((step) => step.approvers.some((member) => member.username === body.username && !member.is_api));
      if (!listed)
        throw forbidden("NotInGovernanceRule", `user ${JSON.stringify(body.username)} is not a human approver of the rule governing transaction ${id}`);
      const user = findWorkspaceUser(tx, body.username, false);
      return endTransaction(tx, current, "REJECTED", user?.id ?? 0, {
        rejectedBy: body.username,
        reason: body.reason === undefined ? `rejected by ${body.username}` : `rejected by ${body.username}: ${body.reason}`,
      });
    });
    return transactionReply(ctx, row);
  });
}
