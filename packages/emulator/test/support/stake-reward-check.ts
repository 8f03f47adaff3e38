import { epochOrNone, type SolanaStake } from "@custody/shared";
import { expect } from "vitest";
import { SOLANA_REWARD_BPS, YEAR_MS } from "../../src/networks/network-constants.js";

/** What the model remembers of a stake between two checks. */
export interface StakeReading {
  activationEpoch: bigint | null;
  /** null while not deactivated (the wire's u64::MAX). */
  deactivationEpoch: bigint | null;
  totalReward: bigint;
  /** total_balance minus the rent-exempt reserve: what a delegation puts at stake. */
  delegated: bigint;
}

export interface RewardModel {
  /** The epoch of the clock at the last check; null before the first. */
  epoch: number | null;
  stakes: Map<string, StakeReading>;
}

type Epochs = Pick<StakeReading, "activationEpoch" | "deactivationEpoch">;

/**
 * Solana's rule, applied by the test itself: a delegation earns the reward of epoch E only if it
 * was in effect for the whole of E, i.e. it started activating before E and was not deactivated
 * before E. A stake deactivated in the epoch it was activating in (activation = deactivation)
 * is never in effect.
 */
function effectiveIn(stake: Epochs, epoch: number): boolean {
  const at = BigInt(epoch);
  return stake.activationEpoch !== null && stake.activationEpoch < at && (stake.deactivationEpoch === null || at <= stake.deactivationEpoch);
}

function epochReward(delegated: bigint, epochLengthMs: number): bigint {
  return delegated > 0n ? (delegated * SOLANA_REWARD_BPS * BigInt(epochLengthMs)) / (10_000n * BigInt(YEAR_MS)) : 0n;
}

/** The most `epochs` epochs can pay: each epoch's reward compounded into the next one's base. */
function compounded(delegated: bigint, epochs: number, epochLengthMs: number): bigint {
  let base = delegated;
  for (let index = 0; index < epochs; index += 1) base += epochReward(base, epochLengthMs);
  return base - delegated;
}

/** The state a stake reports must agree with the clock: activating and deactivating last until the end of their epoch. */
function checkStateAgainstClock(stake: SolanaStake, epoch: number): void {
  const state = stake.blockchain_state;
  const where =
    `stake ${stake.uid} (${state.status}, activation_epoch ${state.activation_epoch}, ` + `deactivation_epoch ${state.deactivation_epoch}) in epoch ${epoch}`;
  const at = BigInt(epoch);
  const deactivation = epochOrNone(state.deactivation_epoch);
  const consistent =
    state.status === "activating"
      ? state.activation_epoch === at && deactivation === null
      : state.status === "activated"
        ? state.activation_epoch !== null && state.activation_epoch < at && deactivation === null
        : state.status === "deactivating"
          ? deactivation === at
          : deactivation !== null && deactivation < at;
  expect(consistent, `${where}: the state does not fit the clock`).toBe(true);
  const inEffect = state.status === "activated" || (state.status === "deactivating" && state.activation_epoch !== state.deactivation_epoch);
  const delegated = state.total_balance - state.rent_exempt_reserve;
  expect(state.active_balance, `${where}: active_balance`).toBe(inEffect && delegated > 0n ? delegated : 0n);
}

/**
 * Every reward paid since the last check is checked against the epochs that ended meanwhile: at
 * most the compounded reward of the epochs the stake was in effect for (none: nothing), and at
 * least the plain reward of each when nothing else changed the stake. The epochs and balances
 * are read before and after the step, so an action and an epoch start in one step are allowed either way.
 */
export function checkStakeRewards(model: RewardModel, stakes: readonly SolanaStake[], epoch: number, epochLengthMs: number): void {
  for (const stake of stakes) {
    checkStateAgainstClock(stake, epoch);
    const state = stake.blockchain_state;
    const before = model.stakes.get(stake.uid);
    const earned = stake.total_reward - (before?.totalReward ?? 0n);
    const now: StakeReading = {
      activationEpoch: state.activation_epoch,
      deactivationEpoch: epochOrNone(state.deactivation_epoch),
      totalReward: stake.total_reward,
      delegated: state.total_balance - state.rent_exempt_reserve,
    };
    const base = now.delegated - earned;
    let inEffectEither = 0;
    let inEffectBoth = 0;
    for (let ended = model.epoch ?? epoch; ended < epoch; ended += 1) {
      const inNow = effectiveIn(now, ended);
      const inBefore = before !== undefined && effectiveIn(before, ended);
      if (inNow || inBefore) inEffectEither += 1;
      if (inNow && inBefore) inEffectBoth += 1;
    }
    const most = compounded(base > (before?.delegated ?? 0n) ? base : (before?.delegated ?? 0n), inEffectEither, epochLengthMs);
    const least = before !== undefined && before.delegated === base ? epochReward(base, epochLengthMs) * BigInt(inEffectBoth) : 0n;
    const where = `stake ${stake.uid}: epochs ${model.epoch ?? epoch} to ${epoch - 1} ended, in effect for ${inEffectEither} of them`;
    expect(earned >= least && earned <= most, `${where}: earned ${earned}, expected from ${least} to ${most}`).toBe(true);
    model.stakes.set(stake.uid, now);
  }
  model.epoch = epoch;
}
