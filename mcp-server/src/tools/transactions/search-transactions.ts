import { TransactionStatus, boundedText, INPUT_LIMITS, isCorrelationId, type WriteTrace } from "@custody/shared";
import { z } from "zod";
import { TransactionView, transactionLine, transactionView } from "../../views/transaction-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { PageInfo, PageInput, toolOutput } from "../tool-output.js";

/** What the guard's store says of the write a reference names. */
const GuardView = z.object({
  reference: z.string(),
  tool: z.string(),
  status: z.enum(["in_flight", "submitted", "uncertain", "not_applied"]),
  transaction_id: z.number().nullable(),
  reserved_at: z.string(),
  looking_up: z.boolean(),
});

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
  output: toolOutput({ transactions: z.array(TransactionView), page_info: PageInfo, guard: GuardView.optional() }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { ctx, signal } = call;
    const accountId = args.account === undefined ? undefined : (await accountWithCurrency(call, args.account)).account.id;
    const page = await ctx.client.searchTransactions(
      { label: args.label, account_id: accountId, status: args.status, page: args.page, page_size: args.page_size },
      { signal },
    );
    const found = await Promise.all(page.edges.map(async ({ node }) => ({ transaction: node, currency: await ctx.currencies.get(node.currency, signal) })));
    // A search by a write's reference also says what the guard knows of that write (an answer lost, a look-up under way).
    const trace = args.label !== undefined && isCorrelationId(args.label) ? await ctx.store.writeByReference(args.label) : null;
    return {
      structured: { transactions: found.map(({ transaction, currency }) => transactionView(transaction, currency)), page_info: page.page_info, ...(trace ? { guard: guardView(trace, ctx.road.lookingUp(trace.reference)) } : {}) },
      text: [
        `${found.length} of ${page.page_info.count} transactions:`,
        ...found.map(({ transaction, currency }) => transactionLine(transaction, currency)),
        ...(trace ? [guardLine(trace, ctx.road.lookingUp(trace.reference))] : []),
      ].join("\n"),
    };
  },
});

function guardView(trace: WriteTrace, lookingUp: boolean): z.infer<typeof GuardView> {
  return { reference: trace.reference, tool: trace.tool, status: trace.status, transaction_id: trace.transaction_id, reserved_at: trace.reserved_at, looking_up: lookingUp };
}

/** What the guard's store says of the write with this reference. */
function guardLine(trace: WriteTrace, lookingUp: boolean): string {
  const what: Record<WriteTrace["status"], string> = {
    in_flight: "is being sent",
    submitted: `was submitted as transaction ${trace.transaction_id}`,
    uncertain: `has an unknown outcome (its answer was lost)${lookingUp ? "; the guard is still looking it up" : ""}: it may still be applied`,
    not_applied: "was not applied",
  };
  return `Guard: the ${trace.tool} with reference ${trace.reference}, sent at ${trace.reserved_at}, ${what[trace.status]}.`;
}
