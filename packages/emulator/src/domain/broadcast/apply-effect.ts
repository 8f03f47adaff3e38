import type { Tx } from "../../context.js";
import type { AccountRow, TransactionRow } from "../../store/state-types.js";
import type { BroadcastEnv } from "./broadcast-env.js";
import type { BroadcastOutcome } from "./broadcast-outcome.js";
import { applyContract } from "./contract-effect.js";
import { applyPolkadot } from "./polkadot-effect.js";
import { applySend } from "./send-effect.js";
import { applyCreateStake, applyStakeAction } from "./solana-stake-effects.js";

/** What broadcasting the transaction does to the state, by kind; on refusal nothing is changed. */
export function applyEffect(tx: Tx, row: TransactionRow, account: AccountRow, env: BroadcastEnv): BroadcastOutcome {
  switch (row.effect.kind) {
    case "send":
    case "deploy":
      return applySend(tx, row, account);
    case "contract":
      return applyContract(tx, row, account);
    case "polkadot":
      return applyPolkadot(tx, row, account);
    case "solana_create_stake":
      return applyCreateStake(tx, row, account, env);
    case "solana_stake_action":
      return applyStakeAction(tx, row, account, env);
  }
}
