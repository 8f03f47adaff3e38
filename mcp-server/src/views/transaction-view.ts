import {
  contractDataOf,
  delimitUntrusted,
  depositWithdrawalAddress,
  describeAmount,
  formatAmount,
  momentText,
  sanitizeUntrustedText,
  textDigest,
  timestampToDate,
  type Currency,
  type Transaction,
} from "@custody/shared";
import { z } from "zod";
import { CreatorView, creatorView, type Usernames } from "./creator-view.js";
import { AccountRef, AmountView, Entity } from "./view-schemas.js";
import { recordView } from "./workspace-view.js";

/** A transaction: every field of the spec's, amounts in both units (`fees` null until broadcast), text sanitised, its creator by id and name. */
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
  created_by: CreatorView,
});

/** An account as a listed transaction names it. */
export interface AccountName {
  id: number;
  name: string;
}

/** Every field of the transaction, amounts in both units, text sanitised, the creator by id and name. */
export function transactionView(transaction: Transaction, currency: Currency, usernames: Usernames): z.infer<typeof TransactionView> {
  return { ...(recordView(transaction, currency) as z.infer<typeof TransactionView>), created_by: creatorView(transaction.created_by, usernames) };
}

/** "2026-11-26T08:00Z <untrusted field="account">sol-cold</untrusted> (2)": when and where a listed transaction was created. */
function dateAndAccount(transaction: Transaction, account: AccountName | undefined): string {
  const where = account === undefined ? `account ${transaction.account_id}` : `${delimitUntrusted("account", account.name)} (${account.id})`;
  return `${momentText(timestampToDate(transaction.created_on))} ${where}`;
}

/** One line of text, with its date and account (by name when known), the workspace's notes delimited as untrusted. */
export function transactionLine(transaction: Transaction, currency: Currency, account?: AccountName): string {
  // A stake operation's recipient is the stake or vote account it acts on, not a payee.
  const toWord = transaction.type.startsWith("STAKE_") ? "on" : "to";
  const to = transaction.recipient ? ` ${toWord} ${sanitizeUntrustedText(transaction.recipient)}` : "";
  const notes = transaction.notes.map((note, index) => ` ${delimitUntrusted(`notes[${index}]`, `${note.title}: ${note.content}`)}`).join("");
  return (
    `transaction ${transaction.id} ${dateAndAccount(transaction, account)} ${transaction.type} ` +
    `${transaction.status}: ${describeAmount(transaction.amount, currency)}${to}, max fees ` +
    `${describeAmount(transaction.max_fees, currency)}${notes}`
  );
}

/** A transaction that moved in a window, for structuredContent: what moved, where, when, how it stands. */
export const ActivityView = z.object({
  transaction_id: z.number(),
  created_on: z.string(),
  broadcast_on: z.string().optional(),
  /** The name is left out when the account was not among those read. */
  account: AccountRef.partial({ name: true }),
  type: z.string(),
  status: z.string(),
  amount: AmountView,
  created_by: CreatorView,
});

export function activityView(
  transaction: Transaction,
  currency: Currency,
  account: AccountName | undefined,
  usernames: Usernames,
): z.infer<typeof ActivityView> {
  return {
    transaction_id: transaction.id,
    created_on: transaction.created_on,
    ...(transaction.broadcast_on === null ? {} : { broadcast_on: transaction.broadcast_on }),
    account: account === undefined ? { id: transaction.account_id } : { id: account.id, name: sanitizeUntrustedText(account.name) },
    type: transaction.type,
    status: transaction.status,
    amount: formatAmount(transaction.amount, currency),
    created_by: creatorView(transaction.created_by, usernames),
  };
}

/** One short line of a transaction that moved in a window: date, account, kind, amount in both units, status. */
export function activityLine(transaction: Transaction, currency: Currency, account: AccountName | undefined): string {
  const broadcast = transaction.broadcast_on === null ? "" : `, broadcast ${momentText(timestampToDate(transaction.broadcast_on))}`;
  return (
    `#${transaction.id} ${dateAndAccount(transaction, account)} ${transaction.type} ` +
    `${describeAmount(transaction.amount, currency)} ${transaction.status}${broadcast}`
  );
}

/** Characters of a contract call's data shown: 0x, the selector and the first argument word. */
const CONTRACT_DATA_PREVIEW = 74;

/**
 * A contract call's data as a line (none for other transactions): its beginning, its length and
 * SHA-256, so it can be recognised and checked against a copy without 842 characters of hex; a
 * deposit also names where its withdrawals go.
 */
export function contractDataLine(transaction: Transaction): string | null {
  const data = contractDataOf(transaction);
  if (data === undefined) return null;
  const { preview, length, sha256 } = textDigest(data, CONTRACT_DATA_PREVIEW);
  const withdrawals = depositWithdrawalAddress(data);
  const deposit = withdrawals === undefined ? "" : `; a beacon deposit withdrawing to ${withdrawals}`;
  return (
    "contract_data: " +
    `${delimitUntrusted("contract_data", `${preview}${length > preview.length ? "…" : ""}`)} ` +
    `(${length} characters, sha256 ${sha256}${deposit})`
  );
}
