import type { Tx } from "../../context.js";
import type { AccountRow, TransactionRow } from "../../store/state-types.js";
import { findAccountByAddress } from "../lookups.js";
import { OK, type BroadcastOutcome } from "./broadcast-outcome.js";
import { isOutcome, spend } from "./spend.js";

/** A send (or contract call or deployment): amount and fees leave the account; a workspace account receiving it is credited. */
export function applySend(tx: Tx, row: TransactionRow, account: AccountRow): BroadcastOutcome {
  const spent = spend(tx, account, row.amount + row.fee_due, `amount ${row.amount} + fees ${row.fee_due}`);
  if (isOutcome(spent)) return spent;
  if (row.recipient !== "" && row.amount > 0n) {
    const receiver = findAccountByAddress(tx, row.recipient, account.currency);
    if (receiver && receiver.id !== account.id) tx.put("accounts", receiver.id, { ...receiver, free: receiver.free + row.amount });
  }
  return OK;
}
