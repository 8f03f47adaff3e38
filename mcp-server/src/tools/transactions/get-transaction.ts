import { givenTransaction } from "@custody/shared";
import { creatorNames } from "../../views/creator-view.js";
import { TransactionView, contractDataLine, transactionLine, transactionView } from "../../views/transaction-view.js";
import { defineTool } from "../define-tool.js";
import { positiveId } from "../id-input.js";
import { READ_HINTS } from "../tool-hints.js";
import { toolOutput } from "../tool-output.js";

export const TransactionIdInput = positiveId().describe("Transaction id");

export const getTransaction = defineTool({
  name: "get_transaction",
  title: "Get a transaction",
  description: "One transaction by id: status, type, amounts and fees (both units), recipient, notes, tx hash.",
  toolset: "read",
  input: { transaction_id: TransactionIdInput },
  output: toolOutput({ transaction: TransactionView }),
  annotations: READ_HINTS,
  async run(args, { ctx, signal }) {
    const transaction = await givenTransaction(ctx.client, args.transaction_id, { signal });
    const [currency, usernames] = await Promise.all([
      ctx.currencies.get(transaction.currency, signal),
      creatorNames(ctx.client, [transaction.created_by], signal),
    ]);
    const data = contractDataLine(transaction);
    return {
      structured: { transaction: transactionView(transaction, currency, usernames) },
      text: [transactionLine(transaction, currency), ...(data === null ? [] : [data])].join("\n"),
    };
  },
});
