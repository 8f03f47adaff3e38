import type { McpServer, Resource } from "@modelcontextprotocol/server";
import type { DeferredContext } from "../server/server-context.js";
import { listedAccounts } from "./account-resource.js";
import { listCursorOf, pageOfListCursor } from "./list-cursor.js";

export interface ListedResources {
  /** Resources of fixed URIs (the confirmation view): on the first page. */
  fixed: readonly Resource[];
  /** Whether the accounts are listed (the person may read them). */
  accounts: boolean;
}

/**
 * resources/list on the session's low-level server, in place of McpServer's, which calls every
 * template's list callback with no cursor and keeps no nextCursor: the fixed resources on the first
 * page, then the accounts, one page of the service's listing per answer, with a nextCursor while
 * the service has more. The cursor names the service page, so any process (a 2026-07-28 request's
 * server, another replica) can answer it. Call after every resource is registered.
 */
export function registerResourceListing(server: McpServer, session: DeferredContext, listed: ListedResources): void {
  // No resource registered: McpServer declared no resources capability, and there is nothing to list.
  if (server.server.getCapabilities().resources === undefined) return;
  server.server.setRequestHandler("resources/list", async (request, extra) => {
    const page = pageOfListCursor(request.params?.cursor);
    const fixed = page === 1 ? listed.fixed : [];
    if (!listed.accounts) return { resources: [...fixed] };
    const accounts = await listedAccounts(session, page, extra.mcpReq.signal);
    return { resources: [...fixed, ...accounts.resources], ...(accounts.more ? { nextCursor: listCursorOf(page + 1) } : {}) };
  });
}
