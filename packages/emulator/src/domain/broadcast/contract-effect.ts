import { randomUUID } from "node:crypto";
import type { Tx } from "../../context.js";
import { ETHEREUM_ACTIVATION_MS } from "../../networks/network-constants.js";
import type { AccountRow, TransactionRow } from "../../store/state-types.js";
import type { BroadcastOutcome } from "./broadcast-outcome.js";
import { applySend } from "./send-effect.js";

/** A contract call: like a send; a deposit to a staking provider's contract opens a staking position. */
export function applyContract(tx: Tx, row: TransactionRow, account: AccountRow): BroadcastOutcome {
  const outcome = applySend(tx, row, account);
  const effect = row.effect;
  if (outcome.ok && effect.kind === "contract" && effect.staking_provider !== null && row.amount > 0n) {
    const id = randomUUID();
    tx.put("ethereum_stakes", id, {
      id,
      account_id: account.id,
      provider: effect.staking_provider,
      contract_address: row.recipient,
      amount: row.amount,
      transaction_id: row.id,
      created_on_ms: tx.now,
      activation_ms: tx.now + ETHEREUM_ACTIVATION_MS,
    });
  }
  return outcome;
}
