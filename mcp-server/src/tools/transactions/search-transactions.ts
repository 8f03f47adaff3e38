import { TransactionStatus, boundedText, INPUT_LIMITS } from "@custody/shared";
import { z } from "zod";
import { transactionLine, transactionView } from "../../views/transaction-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { Entity, PageInfo, PageInput, toolOutput } from "../tool-output.js";

export const searchTransactions = defineTool({
  name: "search_transactions",
  title: "Search transactions",
  description: "Finds transactions by note text (label), account or status, newest first. One page.",
  toolset: "read",
  input: {
    label: boundedText(INPUT_LIMITS.label).min(1).optional().describe("Text in a note's title or content"),
    account: AccountInput.optional(),
    status: TransactionStatus.optional(),
    ...PageInput,
  },
  output: toolOutput({ transactions: z.array(Entity), page_info: PageInfo }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { ctx, signal } = call;
    const accountId = args.account === undefined ? undefined : (await accountWithCurrency(call, args.account)).account.id;
    const page = await ctx.client.searchTransactions(
      { label: args.label, account_id: accountId, status: args.status, page: args.page, page_size: args.page_size },
      { signal },
    );
    const found = await Promise.all(page.edges.map(async ({ node }) => ({ transaction: node, currency: await ctx.currencies.get(node.currency, signal) })));
    return {
      structured: { transactions: found.map(({ transaction, currency }) => transactionView(transaction, currency)), page_info: page.page_info },
      text: [`${found.length} of ${page.page_info.count} transactions:`, ...found.map(({ transaction, currency }) => transactionLine(transaction, currency))].join("\n"),
    };
  },
});
