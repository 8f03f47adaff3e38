import { delimitUntrusted, describeAmount, sanitizeUntrustedText, type Currency, type Transaction } from "@custody/shared";
import { z } from "zod";
import { AmountView, Entity } from "./view-schemas.js";
import { recordView } from "./workspace-view.js";

/** A transaction: every field of the spec's, amounts in both units (`fees` null until broadcast), text sanitised. */
export const TransactionView = z.looseObject({
  id: z.number(),
  account_id: z.number(),
  type: z.string(),
  status: z.string(),
  amount: AmountView,
  max_fees: AmountView,
  fees: AmountView.nullable(),
  currency: z.string(),
  recipient: z.string(),
  notes: z.array(Entity),
  created_on: z.string(),
  broadcast_on: z.string().nullable(),
  tx_hash: z.string().nullable(),
});

/** Every field of the transaction, amounts in both units, text sanitised. */
export function transactionView(transaction: Transaction, currency: Currency): z.infer<typeof TransactionView> {
  return recordView(transaction, currency) as z.infer<typeof TransactionView>;
}

/** One line of text, the workspace's notes delimited as untrusted. */
export function transactionLine(transaction: Transaction, currency: Currency): string {
  // A stake operation's recipient is the stake or vote account it acts on, not a payee.
  const toWord = transaction.type.startsWith("STAKE_") ? "on" : "to";
  const to = transaction.recipient ? ` ${toWord} ${sanitizeUntrustedText(transaction.recipient)}` : "";
  const notes = transaction.notes.map((note, index) => ` ${delimitUntrusted(`notes[${index}]`, `${note.title}: ${note.content}`)}`).join("");
  return `transaction ${transaction.id} ${transaction.type} ${transaction.status}: ${describeAmount(transaction.amount, currency)}${to}, max fees ${describeAmount(transaction.max_fees, currency)}${notes}`;
}
