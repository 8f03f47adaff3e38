import { delimitUntrusted, describeAmount, sanitizeUntrustedText, type Currency, type Transaction } from "@custody/shared";
import { workspaceView } from "./workspace-view.js";

/** Every field of the transaction, amounts in both units, text sanitised. */
export function transactionView(transaction: Transaction, currency: Currency): Record<string, unknown> {
  return workspaceView(transaction, currency) as Record<string, unknown>;
}

/** One line of text, the workspace's notes delimited as untrusted. */
export function transactionLine(transaction: Transaction, currency: Currency): string {
  const to = transaction.recipient ? ` to ${sanitizeUntrustedText(transaction.recipient)}` : "";
  const notes = transaction.notes.map((note, index) => ` ${delimitUntrusted(`notes[${index}]`, `${note.title}: ${note.content}`)}`).join("");
  return `transaction ${transaction.id} ${transaction.type} ${transaction.status}: ${describeAmount(transaction.amount, currency)}${to}, max fees ${describeAmount(transaction.max_fees, currency)}${notes}`;
}
