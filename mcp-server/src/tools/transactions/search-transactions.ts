import {
  TransactionStatus,
  boundedText,
  INPUT_LIMITS,
  isCorrelationId,
  transactionsInWindow,
  withinWindow,
  type Account,
  type Transaction,
  type TransactionPage,
  type WriteTrace,
} from "@custody/shared";
import { z } from "zod";
import { creatorNames } from "../../views/creator-view.js";
import { doubtfulWriteLine } from "../../views/doubtful-write-view.js";
import { TransactionView, transactionLine, transactionView } from "../../views/transaction-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { accountsById } from "../accounts-by-id.js";
import { defineTool } from "../define-tool.js";
import type { ToolCall } from "../../server/tool-call.js";
import { READ_HINTS } from "../tool-hints.js";
import { PageInfo, PageInput, toolOutput } from "../tool-output.js";
import { windowOf, WindowInput } from "../window-input.js";

/** What the guard's store says of the write a reference names. */
const GuardView = z.object({
  reference: z.string(),
  tool: z.string(),
  status: z.enum(["in_flight", "submitted", "uncertain", "not_applied"]),
  transaction_id: z.number().nullable(),
  reserved_at: z.string(),
  looking_up: z.boolean(),
});

/** With since or until: transactions read at most, newest first, and the page size of the matches. */
const WINDOW_MAX_READ = 1000;
const WINDOW_READ_PAGE = 200;
const WINDOW_PAGE_SIZE = 50;

type Filter = { label?: string | undefined; account_id?: number | undefined; status?: TransactionStatus | undefined };

/**
 * The page of transactions created within since/until: the service has no date filter (docs/spec-decisions.md),
 * so the newest are read until the first created before `since`, at most WINDOW_MAX_READ, and paged here.
 */
async function searchWindow(
  call: ToolCall,
  filter: Filter,
  args: { since?: string | undefined; until?: string | undefined; page?: number | undefined; page_size?: number | undefined },
): Promise<{ page: TransactionPage; partial: string | null }> {
  const window = windowOf(args, await call.ctx.client.readServiceNow({ signal: call.signal }), null);
  const found = await transactionsInWindow(call.ctx.client, {
    filter,
    readBackTo: window.since,
    keep: (tx) => withinWindow(tx.created_on, window),
    maxRead: WINDOW_MAX_READ,
    pageSize: WINDOW_READ_PAGE,
    signal: call.signal,
  });
  const size = args.page_size ?? WINDOW_PAGE_SIZE;
  const start = ((args.page ?? 1) - 1) * size;
  const edges = found.transactions.slice(start, start + size).map((node, index) => ({ cursor: start + index, node }));
  const partial = found.complete
    ? null
    : `partial: the newest ${found.read} transactions were read, back to ${found.oldestRead ?? "?"}; narrow with until, account or status`;
  return { page: { edges, page_info: { count: found.transactions.length, has_next_page: start + size < found.transactions.length } }, partial };
}

export const searchTransactions = defineTool({
  name: "search_transactions",
  title: "Search transactions",
  description: "Finds transactions by note (label), account, status or time, newest first. One page.",
  toolset: "read",
  input: {
    label: boundedText(INPUT_LIMITS.label).min(1).optional().describe("Text in a note's title or content"),
    account: AccountInput.optional(),
    status: TransactionStatus.optional(),
    ...WindowInput,
    ...PageInput,
  },
  output: toolOutput({ transactions: z.array(TransactionView), page_info: PageInfo, guard: GuardView.optional() }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { ctx, signal } = call;
    const named: Account | undefined = args.account === undefined ? undefined : (await accountWithCurrency(call, args.account)).account;
    const filter = { label: args.label, account_id: named?.id, status: args.status };
    const { page, partial } =
      args.since === undefined && args.until === undefined
        ? { page: await ctx.client.searchTransactions({ ...filter, page: args.page, page_size: args.page_size }, { signal }), partial: null }
        : await searchWindow(call, filter, args);
    const nodes: Transaction[] = page.edges.map((edge) => edge.node);
    const [accounts, usernames] = await Promise.all([
      accountsById(
        call,
        nodes.map((tx) => tx.account_id),
        named ? [named] : [],
      ),
      creatorNames(
        ctx.client,
        nodes.map((tx) => tx.created_by),
        signal,
      ),
    ]);
    const found = await Promise.all(
      nodes.map(async (transaction) => ({
        transaction,
        currency: await ctx.currencies.get(transaction.currency, signal),
        account: accounts.get(transaction.account_id),
      })),
    );
    // A search by a write's reference also says what the guard knows of that write (an answer lost, a look-up under way).
    const trace = args.label !== undefined && isCorrelationId(args.label) ? await ctx.store.writeByReference(args.label) : null;
    return {
      structured: {
        transactions: found.map(({ transaction, currency }) => transactionView(transaction, currency, usernames)),
        page_info: partial === null ? page.page_info : { ...page.page_info, partial },
        ...(trace ? { guard: guardView(trace, ctx.road.lookingUp(trace.reference)) } : {}),
      },
      text: [
        // A window the cap cut may hold more than the read found, or hold some where the read found none.
        partial !== null && page.page_info.count === 0
          ? "None found in the transactions read:"
          : `${found.length} of ${partial === null ? "" : "at least "}${page.page_info.count} transactions:`,
        ...found.map(({ transaction, currency, account }) => transactionLine(transaction, currency, account)),
        ...(partial === null ? [] : [`(${partial})`]),
        ...(trace ? [guardLine(trace, ctx.road.lookingUp(trace.reference))] : []),
      ].join("\n"),
    };
  },
});

function guardView(trace: WriteTrace, lookingUp: boolean): z.infer<typeof GuardView> {
  return {
    reference: trace.reference,
    tool: trace.tool,
    status: trace.status,
    transaction_id: trace.transaction_id,
    reserved_at: trace.reserved_at,
    looking_up: lookingUp,
  };
}

/** What the guard's store says of the write with this reference: a write whose outcome is unknown in list_activity's words. */
function guardLine(trace: WriteTrace, lookingUp: boolean): string {
  if (trace.status === "uncertain") return `Guard: ${doubtfulWriteLine(trace, lookingUp)}.`;
  const what: Record<Exclude<WriteTrace["status"], "uncertain">, string> = {
    in_flight: "is being sent",
    submitted: `was submitted as transaction ${trace.transaction_id}`,
    not_applied: "was not applied",
  };
  return `Guard: the ${trace.tool} with reference ${trace.reference}, sent at ${trace.reserved_at}, ${what[trace.status]}.`;
}
