import type { SolanaStakeActionName, SolanaStakeRow } from "../store/state-types.js";
import { SOLANA_REWARD_BPS, YEAR_MS } from "./network-constants.js";

/**
 * What a stake allows now. activating or activated: deactivate, split, split_deactivate;
 * deactivating: delegate, within the epoch of its deactivation; deactivated: withdraw.
 * A withdrawn stake, or one with a transaction in progress, allows nothing.
 */
export function allowedStakeActions(stake: SolanaStakeRow, currentEpoch: number): SolanaStakeActionName[] {
  if (stake.closed_on_ms !== null || stake.pending_transaction_id !== null) return [];
  switch (stake.state) {
    case "activating":
    case "activated":
      return ["deactivate", "split", "split_deactivate"];
    case "deactivating":
      return stake.deactivation_epoch === currentEpoch ? ["delegate"] : [];
    case "deactivated":
      return ["withdraw"];
  }
}

/**
 * A delegation deactivated in the epoch it was activating in (activation_epoch = deactivation_epoch)
 * never took effect: Solana counts no effective stake for it, so it earns nothing, not even a last reward.
 */
export function neverInEffect(stake: SolanaStakeRow): boolean {
  return stake.deactivation_epoch !== null && stake.activation_epoch === stake.deactivation_epoch;
}

/**
 * The delegated part earns (active) while the delegation is in effect: activated, or deactivating
 * after having been activated. The rent-exempt reserve never earns.
 */
export function stakeBalances(stake: SolanaStakeRow): { active: bigint; inactive: bigint } {
  const delegated = stake.total_balance - stake.rent_exempt_reserve;
  const earning = stake.state === "activated" || (stake.state === "deactivating" && !neverInEffect(stake));
  const active = earning && delegated > 0n ? delegated : 0n;
  return { active, inactive: stake.total_balance - active };
}

/** The reward of one epoch: the active balance at the yearly rate, for the epoch's share of a year, rounded down. */
export function epochReward(stake: SolanaStakeRow, epochLengthMs: number): bigint {
  const { active } = stakeBalances(stake);
  return (active * SOLANA_REWARD_BPS * BigInt(epochLengthMs)) / (10_000n * BigInt(YEAR_MS));
}
