import { z } from "zod";
import { CreatorView, creatorNames, creatorView } from "../../views/creator-view.js";
import { recordView } from "../../views/workspace-view.js";
import { defineTool } from "../define-tool.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";
import { TransactionIdInput } from "./get-transaction.js";

/** One entry of a transaction's history: a request, its status and expiry. */
const HistoryEntryView = z.looseObject({
  id: z.number(),
  type: z.string(),
  status: z.string(),
  is_complete: z.boolean(),
  created_by: CreatorView,
  created_on: z.string(),
  expired_at: z.string(),
});

export const getTransactionHistory = defineTool({
  name: "get_transaction_history",
  title: "Get a transaction's history",
  description: "The change history of a transaction's requests (created, approved, signed, submitted) and their expiry.",
  toolset: "read",
  input: { transaction_id: TransactionIdInput },
  output: toolOutput({ history: z.array(z.array(HistoryEntryView)) }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const { history } = await ctx.client.getTransactionHistory(args.transaction_id, { signal });
    const usernames = await creatorNames(
      ctx.client,
      history.flat().map((entry) => entry.created_by),
      signal,
    );
    const entryView = (entry: (typeof history)[number][number]) => ({
      ...(recordView(entry) as z.infer<typeof HistoryEntryView>),
      created_by: creatorView(entry.created_by, usernames),
    });
    const lines = history
      .flat()
      .map((entry) => `${entry.created_on} ${entry.type} ${entry.status}${entry.is_complete ? " (complete)" : ""}, expires ${entry.expired_at}`);
    return {
      structured: { history: history.map((entries) => entries.map(entryView)) },
      text: [`transaction ${args.transaction_id} history:`, ...lines].join("\n"),
    };
  },
});
