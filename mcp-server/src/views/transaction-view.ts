import { delimitUntrusted, describeAmount, sanitizeUntrustedText, type Currency, type Transaction } from "@custody/shared";
import { workspaceView } from "./workspace-view.js";

/** Every field of the transaction, amounts in both units, text sanitised. */
export function transactionView(transaction: Transaction, currency: Currency): Record<string, unknown> {
  return workspaceView(transaction, currency) as Record<string, unknown>;
}

/** One line of text, the workspace's notes delimited as untrusted. */
export function transactionLine(transaction: Transaction, currency: Currency): string {
  // A stake operation's recipient is the stake or vote account it acts on, not a payee.
  const toWord = transaction.type.startsWith("STAKE_") ? "on" : "to";
  const to = transaction.recipient ? ` ${toWord} ${sanitizeUntrustedText(transaction.recipient)}` : "";
  const notes = transaction.notes.map((note, index) => ` ${delimitUntrusted(`notes[${index}]`, `${note.title}: ${note.content}`)}`).join("");
  return `transaction ${transaction.id} ${transaction.type} ${transaction.status}: ${describeAmount(transaction.amount, currency)}${to}, max fees ${describeAmount(transaction.max_fees, currency)}${notes}`;
}
