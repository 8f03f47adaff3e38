import { shortenedText } from "@custody/shared";
import { ResourceTemplate, UriTemplate, type McpServer } from "@modelcontextprotocol/server";
import type { DeferredContext } from "../server/server-context.js";
import { accountUri } from "./resource-uris.js";
import { idVariable, jsonContents, readNamedResource } from "./resource-contents.js";

const LISTED_ACCOUNTS = 100;
export const ACCOUNT_TEMPLATE = "custody://accounts/{account_id}";
/** Parsed once per process: a 2026-07-28 request builds a server, not its resources' templates. */
const ACCOUNT = new UriTemplate(ACCOUNT_TEMPLATE);

/** custody://accounts/{account_id}: one account, amounts in both units; the first 100 are listed. */
export function registerAccountResource(server: McpServer, session: DeferredContext): void {
  const template = new ResourceTemplate(ACCOUNT, {
    list: async (extra) => {
      const ctx = await session.load();
      const page = await ctx.client.listAccounts({ page: 1, page_size: LISTED_ACCOUNTS }, { signal: extra.mcpReq.signal });
      return {
        resources: page.edges.map(({ node }) => ({
          uri: accountUri(node.id),
          name: `account-${node.id}`,
          // One line: a name cannot begin a line of the listing that reads as something else.
          title: shortenedText(node.name, 200),
          description: `${node.currency} account`,
          mimeType: "application/json",
        })),
      };
    },
  });
  server.registerResource(
    "account",
    template,
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
