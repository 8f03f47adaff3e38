import { pendingApprovals } from "@custody/shared";
import { z } from "zod";
import { PendingApprovalView, pendingApprovalLine, pendingApprovalView } from "../../views/pending-approval-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

/** Transactions answered at most: the newest waiting. */
const LIMIT = 100;

export const listPendingApprovals = defineTool({
  name: "list_pending_approvals",
  title: "List pending approvals",
  description: "Transactions waiting for approval: amounts, creator and missing approvers, whether this operator can approve, expiry.",
  toolset: "read",
  input: { account: AccountInput.optional() },
  output: toolOutput({ pending: z.array(PendingApprovalView), count: z.number() }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { ctx, signal } = call;
    const accountId = args.account === undefined ? undefined : (await accountWithCurrency(call, args.account)).account.id;
    const { items, total } = await pendingApprovals(ctx.client, ctx.operator, { limit: LIMIT, ...(accountId === undefined ? {} : { account_id: accountId }) }, { signal });
    const now = ctx.client.serviceNow();
    const shown = await Promise.all(items.map(async (item) => ({ item, currency: await ctx.currencies.get(item.transaction.currency, signal) })));
    const more = total > items.length ? [`(the newest ${items.length} of ${total}; name an account to narrow)`] : [];
    return {
      structured: { pending: shown.map(({ item, currency }) => pendingApprovalView(item, currency)), count: total },
      text: [`${total} ${total === 1 ? "transaction waits" : "transactions wait"} for approval:`, ...shown.map(({ item, currency }) => pendingApprovalLine(item, currency, ctx.operator, now)), ...more].join("\n"),
    };
  },
});
