import {
  momentText,
  pendingApprovals,
  timestampToDate,
  transactionsInWindow,
  withinWindow,
  type Transaction,
  type TimeWindow,
  type WriteTrace,
} from "@custody/shared";
import { z } from "zod";
import { creatorNames } from "../../views/creator-view.js";
import { DoubtfulWriteView, doubtfulWriteLine, doubtfulWriteView } from "../../views/doubtful-write-view.js";
import { StuckApprovalView, stuckApprovalLine, stuckApprovalView } from "../../views/pending-approval-view.js";
import { ActivityView, activityLine, activityView } from "../../views/transaction-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { accountsById } from "../accounts-by-id.js";
import { defineTool } from "../define-tool.js";
import type { ToolCall } from "../../server/tool-call.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";
import { windowOf, WindowInput } from "../window-input.js";

const DAY_MS = 86_400_000;
/**
 * A transaction created this long before the window can still change in it (approved, broadcast,
 * expired): a request lives 7 days. Reading back so far finds its broadcast or expiry.
 */
const REQUEST_LIFETIME_MS = 7 * DAY_MS;
/** Transactions read at most, newest first, and shown at most (18 with their creators keep a busy window within 2,500 tokens). */
const MAX_READ = 500;
const PAGE_SIZE = 100;
const MAX_SHOWN = 18;
/** Waiting for approval longer than this is stuck. */
const STUCK_AFTER_MS = DAY_MS;
const MAX_PENDING_READ = 100;
/** The guard's own writes in doubt shown at most. */
const MAX_DOUBTFUL = 20;

/** Created in the window, broadcast in it, or expired in it (7 days after creation). */
function movedIn(tx: Transaction, window: TimeWindow): boolean {
  const expiredAt = new Date(timestampToDate(tx.created_on).getTime() + REQUEST_LIFETIME_MS).toISOString();
  return withinWindow(tx.created_on, window) || withinWindow(tx.broadcast_on, window) || (tx.status === "EXPIRED" && withinWindow(expiredAt, window));
}

/**
 * The guard's writes of this operator whose answer was lost or never came, within the window by the store's clock, and
 * those this process was looking up as they were read: a look-up that concludes while the rest is read is not taken for none.
 */
async function doubtfulWrites(
  call: ToolCall,
  window: TimeWindow,
  accountId: number | undefined,
): Promise<{ writes: WriteTrace[]; complete: boolean; lookingUp: Set<string> }> {
  const { road, store, operator } = call.ctx;
  const { writes, complete } = await store.doubtfulWrites({ operator, since: window.since, until: window.until }, MAX_DOUBTFUL);
  const lookingUp = new Set(writes.filter((trace) => road.lookingUp(trace.reference)).map((trace) => trace.reference));
  return { writes: writes.filter((trace) => accountId === undefined || trace.recognition?.account_id === accountId), complete, lookingUp };
}

/** What a read the cap stopped left out: some of the window's own transactions, or only older ones that may have changed in it. */
function readCut(read: number, oldestRead: string | null, window: TimeWindow): string {
  const oldest = oldestRead === null ? null : timestampToDate(oldestRead);
  if (oldest === null || oldest >= window.since)
    return `transactions: the newest ${read} read, back to ${oldestRead ?? "?"}, not the whole window; narrow with until or account`;
  return `transactions: those created before ${momentText(oldest)} and broadcast or expired in the window were not read`;
}

export const listActivity = defineTool({
  name: "list_activity",
  title: "Recent activity",
  description: "What moved (default: the last 24 h), this server's lost answers, approvals waiting over a day.",
  toolset: "read",
  input: { ...WindowInput, account: AccountInput.optional() },
  output: toolOutput({
    transactions: z.array(ActivityView),
    uncertain_writes: z.array(DoubtfulWriteView),
    stuck: z.array(StuckApprovalView),
    partial: z.array(z.string()),
  }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { ctx, signal } = call;
    const named = args.account === undefined ? undefined : (await accountWithCurrency(call, args.account)).account;
    const serviceNow = await ctx.client.readServiceNow({ signal });
    // Each record is dated by its own clock: the workspace's by the service's, the guard's by its store's.
    const window = windowOf(args, serviceNow, DAY_MS);
    const guardWindow = args.since === undefined && args.until === undefined ? windowOf({}, ctx.store.time(), DAY_MS) : window;
    const filter = named === undefined ? {} : { account_id: named.id };
    const [moved, pending, doubtful] = await Promise.all([
      transactionsInWindow(ctx.client, {
        filter,
        readBackTo: new Date(window.since.getTime() - REQUEST_LIFETIME_MS),
        keep: (tx) => movedIn(tx, window),
        maxRead: MAX_READ,
        pageSize: PAGE_SIZE,
        signal,
      }),
      pendingApprovals(
        ctx.client,
        ctx.operator,
        { ...filter, limit: MAX_PENDING_READ, created_before: new Date(serviceNow.getTime() - STUCK_AFTER_MS) },
        { signal },
      ),
      doubtfulWrites(call, guardWindow, named?.id),
    ]);
    const shown = moved.transactions.slice(0, MAX_SHOWN);
    const [accounts, usernames] = await Promise.all([
      accountsById(
        call,
        shown.map((tx) => tx.account_id),
        [...(named ? [named] : []), ...pending.items.map((item) => item.account)],
      ),
      creatorNames(
        ctx.client,
        shown.map((tx) => tx.created_by),
        signal,
      ),
    ]);
    const currencyOf = (tx: Transaction) => ctx.currencies.get(tx.currency, signal);
    const listed = await Promise.all(shown.map(async (tx) => ({ tx, currency: await currencyOf(tx), account: accounts.get(tx.account_id) })));
    const stuck = await Promise.all(pending.items.map(async (item) => ({ item, currency: await currencyOf(item.transaction) })));
    // The oldest waiting were read: only when every one of them waits over a day may a newer one unread wait so too.
    const stuckCut = pending.total > pending.read && pending.read > 0 && pending.items.length === pending.read;
    const partial = [
      ...(moved.complete ? [] : [readCut(moved.read, moved.oldestRead, window)]),
      ...(moved.transactions.length > shown.length
        ? [`transactions: the newest ${shown.length} of ${moved.transactions.length} shown; narrow with until or account`]
        : []),
      ...(stuckCut ? [`stuck: the oldest ${pending.read} of ${pending.total} waiting all wait over a day; name an account to narrow`] : []),
      ...(doubtful.complete ? [] : [`uncertain writes: the newest ${MAX_DOUBTFUL}, or only what the store keeps at hand (the last 25 h of a file store)`]),
    ];
    const lookingUp = (trace: WriteTrace) => doubtful.lookingUp.has(trace.reference);
    return {
      structured: {
        transactions: listed.map(({ tx, currency, account }) => activityView(tx, currency, account, usernames)),
        uncertain_writes: doubtful.writes.map((trace) => doubtfulWriteView(trace, lookingUp(trace))),
        stuck: stuck.map(({ item, currency }) => stuckApprovalView(item, currency)),
        partial,
      },
      text: [
        // A read the cap stopped counts only what it read: more moved.
        `From ${momentText(window.since)} to ${momentText(window.until)}: ${moved.complete ? "" : "at least "}${moved.transactions.length} ` +
          `${moved.transactions.length === 1 ? "transaction" : "transactions"} moved (created, broadcast or expired).`,
        ...listed.map(({ tx, currency, account }) => activityLine(tx, currency, account)),
        doubtful.writes.length === 0
          ? "No write of this server whose outcome was in doubt."
          : `Writes of this server whose outcome was in doubt (${doubtful.writes.length}):`,
        ...doubtful.writes.map((trace) => doubtfulWriteLine(trace, lookingUp(trace))),
        stuck.length === 0 ? "Nothing waits for approval over a day." : `Waiting for approval over a day (${stuckCut ? "at least " : ""}${stuck.length}):`,
        ...stuck.map(({ item, currency }) => stuckApprovalLine(item, currency, serviceNow)),
        ...partial.map((note) => `Partial: ${note}.`),
      ].join("\n"),
    };
  },
});
