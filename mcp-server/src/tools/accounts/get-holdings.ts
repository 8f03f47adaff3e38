import { accountHoldings, unfinishedTransactions, type Account } from "@custody/shared";
import { z } from "zod";
import { HoldingsView, NetworkTotal, holdingsLine, holdingsView, networkTotals } from "../../views/holdings-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

/** Accounts read when none is named: one page, as list_accounts. */
const ACCOUNTS_READ = 100;

export const getHoldings = defineTool({
  name: "get_holdings",
  title: "Get holdings",
  description: "Per network and account: held, available, staked, unbonding (dated), withdrawable, stakes by state; why available is below balance.",
  toolset: "read",
  input: { account: AccountInput.optional() },
  output: toolOutput({ networks: z.array(NetworkTotal), accounts: z.array(HoldingsView) }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { ctx, signal } = call;
    let accounts: Account[];
    let total: number;
    if (args.account === undefined) {
      const page = await ctx.client.listAccounts({ page: 1, page_size: ACCOUNTS_READ }, { signal });
      accounts = page.edges.map((edge) => edge.node);
      total = page.page_info.count;
    } else {
      accounts = [(await accountWithCurrency(call, args.account)).account];
      total = 1;
    }
    const unfinished = await unfinishedTransactions({ client: ctx.client, signal }, args.account === undefined ? null : (accounts[0]?.id ?? null));
    const now = ctx.client.serviceNow();
    const entries = await Promise.all(
      accounts.map(async (account) => ({
        holdings: await accountHoldings(ctx.client, account, unfinished, now, { signal }),
        currency: await ctx.currencies.get(account.currency, signal),
      })),
    );
    const totals = networkTotals(entries, ctx.operator);
    // Said before the totals: they are of the accounts read, not of the workspace.
    const scope = total > accounts.length ? `, of the first ${accounts.length} of ${total} accounts only (name an account for any other)` : "";
    return {
      structured: { networks: totals.structured, accounts: entries.map(({ holdings, currency }) => holdingsView(holdings, currency)) },
      text: [
        `Holdings as of ${now.toISOString()} (the service's time)${scope}:`,
        ...totals.lines,
        ...entries.map(({ holdings, currency }) => holdingsLine(holdings, currency, ctx.operator)),
      ].join("\n"),
    };
  },
});
