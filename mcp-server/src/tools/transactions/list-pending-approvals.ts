import { pendingApprovals, waitingWrites, type WaitingWrite } from "@custody/shared";
import { z } from "zod";
import { PendingApprovalView, pendingApprovalLine, pendingApprovalView } from "../../views/pending-approval-view.js";
import { waitingWriteLine, waitingWriteView, type WaitingWriteView } from "../../views/waiting-write-view.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

/** Transactions answered at most: the newest waiting. */
const LIMIT = 100;
/** Writes waiting for the person answered at most: the soonest to expire. */
const WAITING_LIMIT = 50;

export const listPendingApprovals = defineTool({
  name: "list_pending_approvals",
  title: "List pending approvals",
  description: "Transactions waiting for approval: amounts, creator and missing approvers, whether this operator can approve, expiry.",
  toolset: "read",
  input: { account: AccountInput.optional() },
  // Each waiting write is a WaitingWriteView; listed as an object only (tools/list's wire budget), its fields named in the text.
  output: toolOutput({ pending: z.array(PendingApprovalView), count: z.number(), waiting_for_you: z.array(z.looseObject({})) }),
  annotations: READ_HINTS,
  async run(args, call) {
    const { ctx, signal } = call;
    const accountId = args.account === undefined ? undefined : (await accountWithCurrency(call, args.account)).account.id;
    const [{ items, total }, waiting] = await Promise.all([
      pendingApprovals(ctx.client, ctx.operator, { limit: LIMIT, ...(accountId === undefined ? {} : { account_id: accountId }) }, { signal }),
      // Person mode's dry runs: the writes an assistant prepared that only this server's person can confirm.
      waitingWrites(ctx.road.store, { operator: ctx.operator, person: call.person?.subject ?? null, service: ctx.client.baseUrl }, WAITING_LIMIT),
    ]);
    const now = ctx.client.serviceNow();
    const shown = await Promise.all(items.map(async (item) => ({ item, currency: await ctx.currencies.get(item.transaction.currency, signal) })));
    // Said in the first line: a model reading the list must know it is not all of it before it reads the list.
    const more = total > items.length ? ` (the newest ${items.length} shown; name an account to narrow)` : "";
    const waitingForYou: z.infer<typeof WaitingWriteView>[] = waiting.map(waitingWriteView);
    return {
      structured: { pending: shown.map(({ item, currency }) => pendingApprovalView(item, currency)), count: total, waiting_for_you: waitingForYou },
      text: [
        `${total} ${total === 1 ? "transaction waits" : "transactions wait"} for approval${more}:`,
        ...shown.map(({ item, currency }) => pendingApprovalLine(item, currency, ctx.operator, now)),
        ...waitingText(waiting, ctx.now()),
      ].join("\n"),
    };
  },
});

/** The writes waiting for the person (none in token mode): only they can confirm them, never this tool's caller. */
function waitingText(waiting: readonly WaitingWrite[], now: Date): string[] {
  if (waiting.length === 0) return [];
  const head =
    `${waiting.length} ` +
    `${waiting.length === 1 ? "write an assistant prepared waits" : "writes an assistant prepared wait"} ` +
    "for the person to confirm or decline (reference, tool, what moves; nothing is sent until they do; the " +
    "same call with the same reference reads the outcome):";
  return [head, ...waiting.map((write) => `  ${waitingWriteLine(write, now)}`)];
}
