import { SOLANA_EPOCH_NONE, type SolanaStake } from "@custody/shared";
import { isoWithOffset, isoWithoutOffset } from "../clock/timestamps.js";
import { allowedStakeActions, stakeBalances } from "../networks/solana-stake-state.js";
import type { AccountRow, SolanaStakeRow } from "../store/state-types.js";

/** The path of a stake action relative to the base URL; its last segment names the action. */
export function stakeActionPath(accountId: number, uid: string, action: string): string {
  return `/solana/accounts/${accountId}/stakes/${uid}/actions/${action}`;
}

export function solanaStakeView(stake: SolanaStakeRow, account: AccountRow, currentEpoch: number): SolanaStake {
  const { active, inactive } = stakeBalances(stake);
  return {
    uid: stake.uid,
    account_id: stake.account_id,
    account_name: account.name,
    currency: account.currency,
    created_on: isoWithoutOffset(stake.created_on_ms),
    status: stake.closed_on_ms === null ? "ACTIVE" : "WITHDRAWN",
    total_reward: stake.total_reward,
    actions: allowedStakeActions(stake, currentEpoch).map((action) => stakeActionPath(account.id, stake.uid, action)),
    blockchain_state: {
      status: stake.state,
      activation_epoch: stake.activation_epoch === null ? null : BigInt(stake.activation_epoch),
      // Solana's convention: u64::MAX until deactivated (rows keep null for it, as older state does).
      deactivation_epoch: stake.deactivation_epoch === null ? SOLANA_EPOCH_NONE : BigInt(stake.deactivation_epoch),
      activation_date: stake.activation_date_ms === null ? null : isoWithOffset(stake.activation_date_ms),
      deactivation_date: stake.deactivation_date_ms === null ? null : isoWithOffset(stake.deactivation_date_ms),
      active_balance: active,
      inactive_balance: inactive,
      total_balance: stake.total_balance,
      rent_exempt_reserve: stake.rent_exempt_reserve,
      pub_key: stake.pub_key,
      validator_address: stake.validator_address,
    },
  };
}
