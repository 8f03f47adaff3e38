import { defineWriteTool } from "../write-tool.js";
import { TransactionIdInput } from "./get-transaction.js";

export const approveTransaction = defineWriteTool({
  kind: "approve_transaction",
  description: "Adds this operator's approval to a pending transaction. Dry run first: shows whether it completes the quorum.",
  input: { transaction_id: TransactionIdInput },
  on: "transaction",
  toRequest: (args) => ({ kind: "approve_transaction", transaction_id: args.transaction_id }),
});
