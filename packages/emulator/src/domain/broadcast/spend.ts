import type { Tx } from "../../context.js";
import type { AccountRow } from "../../store/state-types.js";
import { availableBalance } from "../../views/account-view.js";
import { refused, type BroadcastOutcome } from "./broadcast-outcome.js";

/**
 * Takes `amount` from the account's own funds, or refuses when what it can spend (after its
 * other pending transactions) is short: no balance ever goes negative.
 */
export function spend(tx: Tx, account: AccountRow, amount: bigint, what: string): BroadcastOutcome | AccountRow {
  const available = availableBalance(account, tx.now);
  if (available < amount) {
    return refused(`insufficient funds: ${what} needs ${amount} base units, the account can spend ${available}`);
  }
  const spent = { ...account, free: account.free - amount };
  tx.put("accounts", account.id, spent);
  return spent;
}

export function isOutcome(value: BroadcastOutcome | AccountRow): value is BroadcastOutcome {
  return "ok" in value;
}
