import {
  CreateSolanaStakeRequest,
  DelegateSolanaStakeRequest,
  SolanaStake,
  SolanaStakeAction,
  SolanaStakeList,
  SplitSolanaStakeRequest,
} from "@custody/shared";
import type { EmulatorContext } from "../context.js";
import { pathId, requireAccount } from "../domain/lookups.js";
import { solanaStakesOf } from "../domain/stake-lookups.js";
import { planCreateStake, planStakeAction, requireSolanaAccount, requireStake, type StakeActionInput } from "../domain/solana/plan-stake.js";
import { solanaEpochsOf } from "../domain/solana-epochs-of.js";
import { createTransaction } from "../domain/transactions/create-transaction.js";
import type { ApiRequest } from "../http/api-request.js";
import { notFound } from "../domain/domain-error.js";
import { parseBody } from "../http/parse-body.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import type { AccountRow } from "../store/state-types.js";
import { solanaStakeView } from "../views/solana-stake-view.js";
import { operatorOf } from "./operator-of.js";
import { transactionReply } from "./transaction-routes.js";

function solanaAccount(ctx: EmulatorContext, request: ApiRequest): AccountRow {
  return requireSolanaAccount(requireAccount(ctx.store, pathId(request.params.account_id, "account")));
}

function currentEpoch(ctx: EmulatorContext): number {
  return solanaEpochsOf(ctx.store.meta(), ctx.options.epochSeconds).epochAt(ctx.clock.now());
}

function actionInput(action: SolanaStakeAction, body: unknown): StakeActionInput {
  switch (action) {
    case "delegate":
      return { validator: parseBody(DelegateSolanaStakeRequest, body).validator };
    case "split":
    case "split_deactivate":
      return { amount: parseBody(SplitSolanaStakeRequest, body).amount };
    case "deactivate":
    case "withdraw":
      return {};
  }
}

/** Guided Solana staking: create and delegate, list, read, and the stake actions. */
export function addSolanaRoutes(routes: RouteTable): void {
  routes.post("/solana/accounts/:account_id/stakes", async (ctx, request) => {
    const account = solanaAccount(ctx, request);
    const body = parseBody(CreateSolanaStakeRequest, request.body);
    const operator = operatorOf(request);
    const row = await ctx.commit((tx) => {
      const current = tx.get("accounts", account.id) ?? account;
      return createTransaction(tx, operator, planCreateStake(current, operator, body.amount, body.validator, tx.now));
    });
    return transactionReply(ctx, row);
  });

  routes.get("/solana/accounts/:account_id/stakes", (ctx, request) => {
    const account = solanaAccount(ctx, request);
    const epoch = currentEpoch(ctx);
    const stakes = solanaStakesOf(ctx.store, account.id)
      .filter((stake) => stake.closed_on_ms === null)
      .map((stake) => solanaStakeView(stake, account, epoch));
    return jsonReply(SolanaStakeList, stakes);
  });

  routes.get("/solana/accounts/:account_id/stakes/:uid", (ctx, request) => {
    const account = solanaAccount(ctx, request);
    const stake = requireStake(ctx.store, account, request.params.uid ?? "");
    return jsonReply(SolanaStake, solanaStakeView(stake, account, currentEpoch(ctx)));
  });

  routes.post("/solana/accounts/:account_id/stakes/:uid/actions/:action", async (ctx, request) => {
    const parsed = SolanaStakeAction.safeParse(request.params.action);
    if (!parsed.success) {
      throw notFound(`no stake action ${JSON.stringify(request.params.action)}; actions are ${SolanaStakeAction.options.join(", ")}`);
    }
    const action = parsed.data;
    const account = solanaAccount(ctx, request);
    const input = actionInput(action, request.body);
    const operator = operatorOf(request);
    const epochs = solanaEpochsOf(ctx.store.meta(), ctx.options.epochSeconds);
    const row = await ctx.commit((tx) => {
      const current = tx.get("accounts", account.id) ?? account;
      const stake = requireStake(tx, current, request.params.uid ?? "");
      const created = createTransaction(tx, operator, planStakeAction(current, operator, stake, action, input, epochs, tx.now));
      tx.put("solana_stakes", stake.uid, { ...stake, pending_transaction_id: created.id });
      return created;
    });
    return transactionReply(ctx, row);
  });
}
