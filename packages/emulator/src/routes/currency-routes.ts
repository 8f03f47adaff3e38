import { Currency, TokenPage } from "@custody/shared";
import { requireCurrency } from "../domain/lookups.js";
import { paginate, readPageRequest } from "../http/pagination.js";
import { jsonReply } from "../http/reply.js";
import type { RouteTable } from "../http/route-def.js";

export function addCurrencyRoutes(routes: RouteTable): void {
  routes.get("/currencies/tokens", (ctx, request) => {
    const page = readPageRequest(request.query);
    const tokens = [...ctx.store.values("tokens")].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return jsonReply(TokenPage, paginate(tokens, page));
  });

  routes.get("/currencies/:currency", (ctx, request) => jsonReply(Currency, requireCurrency(ctx.store, request.params.currency ?? "")));
}
