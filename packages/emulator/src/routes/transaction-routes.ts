import {
  ApproveTransactionRequest,
  FeeEstimate,
  FeeEstimateRequest,
  Transaction,
  TransactionHistory,
  TransactionPage,
  TransactionRequest,
} from "@custody/shared";
import type { EmulatorContext } from "../context.js";
import { pathId, requireCurrency, requireTransaction } from "../domain/lookups.js";
import { approveTransaction } from "../domain/transactions/approve-transaction.js";
import { checkApprovalMatches } from "../domain/transactions/approval-match.js";
import { createTransaction } from "../domain/transactions/create-transaction.js";
import { refuseMisnamedFields } from "../domain/transactions/misnamed-fields.js";
import { feeOperationOf, planTransaction, requestKind, requireAccountNamed } from "../domain/transactions/plan-transaction.js";
import { notFound } from "../domain/domain-error.js";
import { pageFrom, pageStart } from "../http/pagination.js";
import { parseBody } from "../http/parse-body.js";
import { jsonReply, type Reply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import { networkFee, proposedMaxFees } from "../networks/fee-schedule.js";
import type { TransactionRow } from "../store/state-types.js";
import { historyView, transactionView } from "../views/transaction-view.js";
import { operatorOf } from "./operator-of.js";
import { readTransactionFilter } from "./transaction-query.js";

export function transactionReply(ctx: EmulatorContext, row: TransactionRow): Reply {
  const account = ctx.store.get("accounts", row.account_id);
  if (!account) throw notFound(`account ${row.account_id} of transaction ${row.id} does not exist`);
  return jsonReply(Transaction, transactionView(row, account, ctx.clock.now()));
}

export function addTransactionRoutes(routes: RouteTable): void {
  routes.post("/transactions", async (ctx, request) => {
    refuseMisnamedFields(request.body, true);
    const body = parseBody(TransactionRequest, request.body);
    const operator = operatorOf(request);
    const row = await ctx.commit((tx) => createTransaction(tx, operator, planTransaction(tx, operator, body)));
    return transactionReply(ctx, row);
  });

  routes.post("/transactions/fees", (ctx, request) => {
    refuseMisnamedFields(request.body, false);
    const body = parseBody(FeeEstimateRequest, request.body);
    const account = requireAccountNamed(ctx.store, body.account_name);
    const kind = requestKind(body);
    const fees = networkFee(account.network, body.speed, feeOperationOf(kind, body.recipient));
    const estimate: FeeEstimate = {
      account_id: account.id,
      currency: requireCurrency(ctx.store, account.currency).name,
      speed: body.speed,
      fees,
      max_fees: kind.kind === "polkadot" ? 0n : proposedMaxFees(fees),
    };
    return jsonReply(FeeEstimate, estimate);
  });

  routes.get("/transactions", (ctx, request) => {
    const filter = readTransactionFilter(request.query);
    const start = pageStart(filter.page);
    const selected = ctx.store.indexes.transactions.select(filter, start, filter.page.pageSize, (id) => ctx.store.get("transactions", id)?.account_id);
    const now = ctx.clock.now();
    const views = selected.ids.map((id) => {
      const row = requireTransaction(ctx.store, id);
      const account = ctx.store.get("accounts", row.account_id);
      if (!account) throw notFound(`account ${row.account_id} of transaction ${row.id} does not exist`);
      return transactionView(row, account, now);
    });
    return jsonReply(TransactionPage, pageFrom(views, start, selected.count));
  });

  routes.get("/transactions/:transaction_id", (ctx, request) =>
    transactionReply(ctx, requireTransaction(ctx.store, pathId(request.params.transaction_id, "transaction"))),
  );

  routes.get("/transactions/:transaction_id/history", (ctx, request) => {
    const row = requireTransaction(ctx.store, pathId(request.params.transaction_id, "transaction"));
    const governance = ctx.store.get("requests", row.request_id);
    if (!governance) throw notFound(`request ${row.request_id} of transaction ${row.id} does not exist`);
    return jsonReply(TransactionHistory, historyView(governance));
  });

  routes.post("/transactions/:transaction_id/approve", async (ctx, request) => {
    refuseMisnamedFields(request.body, false);
    const body = parseBody(ApproveTransactionRequest, request.body);
    const operator = operatorOf(request);
    const id = pathId(request.params.transaction_id, "transaction");
    const row = await ctx.commit((tx) =>
      approveTransaction(tx, id, { username: operator.username, is_api: true, user_id: operator.id }, (current) => checkApprovalMatches(tx, current, body)),
    );
    return transactionReply(ctx, row);
  });
}
