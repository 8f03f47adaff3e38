import { EthereumStakePage } from "@custody/shared";
import { pathId, requireAccount } from "../domain/lookups.js";
import { ethereumStakesOf } from "../domain/stake-lookups.js";
import { notFound } from "../domain/domain-error.js";
import { mapPage, paginate, readPageRequest } from "../http/pagination.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";
import { ethereumStakeView } from "../views/ethereum-stake-view.js";

/** GET /ethereum/accounts/{id}/stakes: the account's staking positions, oldest first. */
export function addEthereumRoutes(routes: RouteTable): void {
  routes.get("/ethereum/accounts/:account_id/stakes", (ctx, request) => {
    const account = requireAccount(ctx.store, pathId(request.params.account_id, "account"));
    if (account.network !== "Ethereum") throw notFound(`account ${account.id} is a ${account.network} account, not an Ethereum account`);
    const page = readPageRequest(request.query);
    const now = ctx.clock.now();
    const stakes = ethereumStakesOf(ctx.store, account.id).sort((a, b) => a.created_on_ms - b.created_on_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return jsonReply(
      EthereumStakePage,
      mapPage(paginate(stakes, page), (stake) => ethereumStakeView(stake, account, now)),
    );
  });
}
