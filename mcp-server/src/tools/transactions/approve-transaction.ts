import { defineWriteTool } from "../../guard/write-tool.js";
import { TransactionIdInput } from "./get-transaction.js";

export const approveTransaction = defineWriteTool({
  kind: "approve_transaction",
  description:
    "Adds this operator's approval to a transaction pending approval. Dry run first: shows the transaction and whether this approval completes the quorum.",
  input: { transaction_id: TransactionIdInput },
  on: "transaction",
  toRequest: (args) => ({ kind: "approve_transaction", transaction_id: args.transaction_id }),
});
