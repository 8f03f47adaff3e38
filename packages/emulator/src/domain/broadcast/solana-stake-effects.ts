import { checkSolanaStakeAction, hasBlocking } from "@custody/shared";
import type { Tx } from "../../context.js";
import { SOLANA_RENT_EXEMPT_RESERVE } from "../../networks/network-constants.js";
import type { AccountRow, SolanaStakeRow, TransactionRow } from "../../store/state-types.js";
import { solanaStakeView } from "../../views/solana-stake-view.js";
import { OK, refused, type BroadcastOutcome } from "./broadcast-outcome.js";
import type { BroadcastEnv } from "./broadcast-env.js";
import { isOutcome, spend } from "./spend.js";

/** STAKE_CREATE_DELEGATE: the amount (fees apart) becomes a new stake account, activating until the next epoch. */
export function applyCreateStake(tx: Tx, row: TransactionRow, account: AccountRow, env: BroadcastEnv): BroadcastOutcome {
  const effect = row.effect;
  if (effect.kind !== "solana_create_stake") throw new Error(`transaction ${row.id} does not create a stake`);
  const spent = spend(tx, account, row.amount + row.fee_due, `stake ${row.amount} + fees ${row.fee_due}`);
  if (isOutcome(spent)) return spent;
  const stake: SolanaStakeRow = {
    uid: effect.stake_uid,
    account_id: account.id,
    created_on_ms: tx.now,
    state: "activating",
    activation_epoch: env.epochs.epochAt(tx.now),
    deactivation_epoch: null,
    activation_date_ms: tx.now,
    deactivation_date_ms: null,
    total_balance: row.amount,
    rent_exempt_reserve: SOLANA_RENT_EXEMPT_RESERVE,
    total_reward: 0n,
    pub_key: effect.stake_pub_key,
    validator_address: effect.validator,
    closed_on_ms: null,
    pending_transaction_id: null,
  };
  tx.put("solana_stakes", stake.uid, stake);
  return OK;
}

function changed(stake: SolanaStakeRow, row: TransactionRow, env: BroadcastEnv, now: number): SolanaStakeRow[] | BroadcastOutcome {
  const effect = row.effect;
  if (effect.kind !== "solana_stake_action") throw new Error(`transaction ${row.id} is not a stake action`);
  const epoch = env.epochs.epochAt(now);
  switch (effect.action) {
    case "deactivate":
      return [{ ...stake, state: "deactivating", deactivation_epoch: epoch, deactivation_date_ms: now }];
    case "delegate":
      return [
        {
          ...stake,
          state: "activating",
          validator_address: effect.validator ?? stake.validator_address,
          activation_epoch: epoch,
          activation_date_ms: now,
          deactivation_epoch: null,
          deactivation_date_ms: null,
        },
      ];
    case "withdraw":
      return [{ ...stake, total_balance: 0n, closed_on_ms: now }];
    case "split":
    case "split_deactivate": {
      if (effect.new_stake_uid === null || effect.new_stake_pub_key === null) throw new Error(`transaction ${row.id} names no new stake`);
      const split: SolanaStakeRow = {
        ...stake,
        uid: effect.new_stake_uid,
        pub_key: effect.new_stake_pub_key,
        created_on_ms: now,
        total_balance: row.amount,
        total_reward: 0n,
        pending_transaction_id: null,
      };
      const deactivated: SolanaStakeRow =
        effect.action === "split_deactivate" ? { ...split, state: "deactivating", deactivation_epoch: epoch, deactivation_date_ms: now } : split;
      return [{ ...stake, total_balance: stake.total_balance - row.amount }, deactivated];
    }
  }
}

/**
 * A stake action, checked again at broadcast against the stake as it is then (its `actions`
 * and the shared stake rules); fees are paid from the account's own funds.
 */
export function applyStakeAction(tx: Tx, row: TransactionRow, account: AccountRow, env: BroadcastEnv): BroadcastOutcome {
  const effect = row.effect;
  if (effect.kind !== "solana_stake_action") throw new Error(`transaction ${row.id} is not a stake action`);
  const current = tx.get("solana_stakes", effect.stake_uid);
  if (!current) return refused(`stake ${effect.stake_uid} does not exist`);
  const stake = { ...current, pending_transaction_id: null };
  const view = solanaStakeView(stake, account, env.epochs.epochAt(tx.now));
  const amount = effect.action === "split" || effect.action === "split_deactivate" ? { amount: row.amount } : {};
  const findings = checkSolanaStakeAction(effect.action, view, amount);
  if (hasBlocking(findings)) {
    return refused(
      findings
        .filter((item) => item.severity === "block")
        .map((item) => item.message)
        .join("; "),
    );
  }
  const rows = changed(stake, row, env, tx.now);
  if (!Array.isArray(rows)) return rows;
  let payer = account;
  if (effect.action === "withdraw") {
    payer = { ...account, free: account.free + stake.total_balance };
    tx.put("accounts", account.id, payer);
  }
  const spent = spend(tx, payer, row.fee_due, `fees ${row.fee_due}`);
  if (isOutcome(spent)) {
    if (payer !== account) tx.put("accounts", account.id, account);
    return spent;
  }
  for (const next of rows) tx.put("solana_stakes", next.uid, next);
  return OK;
}
