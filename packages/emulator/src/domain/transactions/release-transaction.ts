import type { Tx } from "../../context.js";
import type { TransactionRow } from "../../store/state-types.js";

/** A transaction that ends (or reaches broadcast) gives back what it held: the funds it reserved, the stake it locked. */
export function releaseTransaction(tx: Tx, row: TransactionRow): TransactionRow {
  const account = tx.get("accounts", row.account_id);
  if (account && row.reserved > 0n) tx.put("accounts", account.id, { ...account, in_flight: account.in_flight - row.reserved });
  const effect = row.effect;
  if (effect.kind === "solana_stake_action") {
    const stake = tx.get("solana_stakes", effect.stake_uid);
    if (stake?.pending_transaction_id === row.id) tx.put("solana_stakes", stake.uid, { ...stake, pending_transaction_id: null });
  }
  return { ...row, reserved: 0n };
}
