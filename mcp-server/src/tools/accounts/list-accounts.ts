import { z } from "zod";
import { AccountSummary, accountLine, accountSummary } from "../../views/account-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { PageInfo, PageInput, toolOutput } from "../tool-output.js";

export const listAccounts = defineTool({
  name: "list_accounts",
  title: "List accounts",
  description: "Lists accounts: id, name, currency, address, balance and available, both units. One page.",
  toolset: "read",
  input: PageInput,
  output: toolOutput({ accounts: z.array(AccountSummary), page_info: PageInfo }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const page = await ctx.client.listAccounts(args, { signal });
    const accounts = await Promise.all(page.edges.map(async ({ node }) => ({ account: node, currency: await ctx.currencies.get(node.currency, signal) })));
    return {
      structured: { accounts: accounts.map(({ account, currency }) => accountSummary(account, currency)), page_info: page.page_info },
      text: [
        `${accounts.length} of ${page.page_info.count} accounts:`,
        ...accounts.map(({ account, currency }) => accountLine(account, currency, ctx.client.serviceNow())),
      ].join("\n"),
    };
  },
});
