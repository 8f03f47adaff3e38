import { Account } from "@custody/shared";
import { createAccount } from "../domain/accounts/create-account.js";
import { deposit } from "../domain/accounts/deposit.js";
import { renameAccount } from "../domain/accounts/rename-account.js";
import { setGovernance } from "../domain/accounts/set-governance.js";
import { pathId } from "../domain/lookups.js";
import { parseBody } from "../http/parse-body.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import { accountView } from "../views/account-view.js";
import { DepositBody, GovernanceBody, NewAccountBody, RenameAccountBody } from "./control-schemas.js";

/** Accounts as administrators manage them: create, fund from outside, set governance rules. */
export function addAccountControlRoutes(routes: RouteTable): void {
  routes.post("/accounts", async (ctx, request) => {
    const body = parseBody(NewAccountBody, request.body);
    const account = await ctx.commit((tx) => {
      const created = createAccount(tx, ctx.hsm, {
        name: body.name,
        currency: body.currency,
        governance: body.governance,
        allowDuplicateName: body.allow_duplicate_name,
      });
      return body.balance === undefined || body.balance === "0" ? created : deposit(tx, created.id, BigInt(body.balance));
    });
    return jsonReply(Account, accountView(account, ctx.clock.now()));
  });

  routes.post("/accounts/:account_id/deposit", async (ctx, request) => {
    const body = parseBody(DepositBody, request.body);
    const id = pathId(request.params.account_id, "account");
    const account = await ctx.commit((tx) => deposit(tx, id, BigInt(body.amount)));
    return jsonReply(Account, accountView(account, ctx.clock.now()));
  });

  routes.put("/accounts/:account_id/name", async (ctx, request) => {
    const body = parseBody(RenameAccountBody, request.body);
    const id = pathId(request.params.account_id, "account");
    const account = await ctx.commit((tx) => renameAccount(tx, id, body.name, body.allow_duplicate_name));
    return jsonReply(Account, accountView(account, ctx.clock.now()));
  });

  routes.put("/accounts/:account_id/governance", async (ctx, request) => {
    const body = parseBody(GovernanceBody, request.body);
    const id = pathId(request.params.account_id, "account");
    const account = await ctx.commit((tx) => setGovernance(tx, id, body));
    return jsonReply(Account, accountView(account, ctx.clock.now()));
  });
}
