import { Account, AccountBalance, AccountPage, SyncResult } from "@custody/shared";
import { pathId, requireAccount } from "../domain/lookups.js";
import { stakedBalanceOf } from "../domain/stake-lookups.js";
import { pageFrom, pageStart, readPageRequest } from "../http/pagination.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import { accountView, balanceView } from "../views/account-view.js";

export function addAccountRoutes(routes: RouteTable): void {
  routes.get("/accounts", (ctx, request) => {
    const page = readPageRequest(request.query);
    const now = ctx.clock.now();
    const ids = ctx.store.indexes.accounts.ids.ascending();
    const start = pageStart(page);
    const views = ids.slice(start, start + page.pageSize).map((id) => accountView(requireAccount(ctx.store, id), now));
    return jsonReply(AccountPage, pageFrom(views, start, ids.length));
  });

  routes.get("/accounts/:account_id", (ctx, request) => {
    const account = requireAccount(ctx.store, pathId(request.params.account_id, "account"));
    return jsonReply(Account, accountView(account, ctx.clock.now()));
  });

  routes.get("/accounts/:account_id/sync", (ctx, request) => {
    const account = requireAccount(ctx.store, pathId(request.params.account_id, "account"));
    return jsonReply(SyncResult, { success: true, account_id: account.id });
  });

  routes.get("/accounts/:account_id/balance", (ctx, request) => {
    const account = requireAccount(ctx.store, pathId(request.params.account_id, "account"));
    return jsonReply(AccountBalance, balanceView(account, ctx.clock.now(), stakedBalanceOf(ctx.store, account)));
  });
}
