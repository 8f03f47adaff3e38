import { shortenedText } from "@custody/shared";
import { ResourceTemplate, UriTemplate, type McpServer, type Resource } from "@modelcontextprotocol/server";
import type { DeferredContext } from "../server/server-context.js";
import { accountUri } from "./resource-uris.js";
import { idVariable, jsonContents, readNamedResource } from "./resource-contents.js";

/**
 * Accounts in one resources/list answer: one page of the service's GET /accounts. The SDK's v2
 * client walks at most 64 pages when asked for the whole list (its listMaxPages), so 500 a page
 * lists 32,000 accounts that way (at 100, a workspace of 10,000 made it throw).
 */
export const ACCOUNTS_PER_PAGE = 500;
export const ACCOUNT_TEMPLATE = "custody://accounts/{account_id}";
/** Parsed once per process: a 2026-07-28 request builds a server, not its resources' templates. */
const ACCOUNT = new UriTemplate(ACCOUNT_TEMPLATE);

/** The account resources of one page of the service's listing, and whether the service has more after it. */
export async function listedAccounts(session: DeferredContext, page: number, signal: AbortSignal): Promise<{ resources: Resource[]; more: boolean }> {
  const ctx = await session.load();
  const listed = await ctx.client.listAccounts({ page, page_size: ACCOUNTS_PER_PAGE }, { signal });
  const resources = listed.edges.map(({ node }) => ({
    uri: accountUri(node.id),
    name: `account-${node.id}`,
    // One line: a name cannot begin a line of the listing that reads as something else.
    title: shortenedText(node.name, 200),
    description: `${node.currency} account`,
    mimeType: "application/json",
  }));
  return { resources, more: listed.page_info.has_next_page };
}

/** custody://accounts/{account_id}: one account, amounts in both units; listed a page at a time by resource-listing.ts. */
export function registerAccountResource(server: McpServer, session: DeferredContext): void {
  server.registerResource(
    "account",
    new ResourceTemplate(ACCOUNT, { list: undefined }),
    { title: "Account", description: "An account with its balances in base and display units.", mimeType: "application/json" },
    (uri, variables, extra) =>
      readNamedResource(uri, async () => {
        const ctx = await session.load();
        const account = await ctx.client.getAccount(idVariable(variables, "account_id"), { signal: extra.mcpReq.signal });
        const currency = await ctx.currencies.get(account.currency, extra.mcpReq.signal);
        const { accountView } = await import("../views/resource-views.js");
        return jsonContents(uri, accountView(account, currency, ctx.client.serviceNow()));
      }),
  );
}
