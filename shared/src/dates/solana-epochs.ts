import { epochOrNone, type SolanaStake } from "../schemas/solana-stake.js";
import { timestampToDate } from "../schemas/primitives.js";

/** A Solana epoch's length as the spec gives it: the unlocking period is "about 2.5 days". */
export const SOLANA_EPOCH_MS = 2.5 * 86_400_000;

const MINUTE_MS = 60_000;

/** Up to the next whole minute: the service's now is known to about a second, and a date must not come early. */
function minuteAfter(ms: number): Date {
  return new Date(Math.ceil(ms / MINUTE_MS) * MINUTE_MS);
}

/**
 * When Solana's epochs start, as far as the service's stakes tell: epoch e starts at
 * genesis + e × length, and every stake says an event happened in an epoch (its activation or
 * deactivation date in its activation or deactivation epoch) and, by its state, which epoch is
 * the current one (activating or deactivating: still the epoch of that event; activated or
 * deactivated: a later one). Each such fact bounds the genesis; what all of them leave open is
 * the window below. Dates are the latest the window allows, up to the whole minute, so they are never early.
 */
export class SolanaEpochClock {
  private constructor(
    /** Genesis is after this (ms)... */
    private readonly after: number,
    /** ...and at or before this (ms). */
    private readonly atOrBefore: number,
    private readonly lengthMs: number,
  ) {}

  /** The window the stakes leave, or null when they contradict each other (an epoch of another length). */
  static fromStakes(stakes: readonly SolanaStake[], now: Date, lengthMs = SOLANA_EPOCH_MS): SolanaEpochClock | null {
    let after = Number.NEGATIVE_INFINITY;
    let atOrBefore = Number.POSITIVE_INFINITY;
    // Something happened at `at` in epoch e: start(e) <= at < start(e + 1).
    const inEpoch = (epoch: number, at: number) => {
      atOrBefore = Math.min(atOrBefore, at - epoch * lengthMs);
      after = Math.max(after, at - (epoch + 1) * lengthMs);
    };
    // Epoch e has ended by `at`: start(e + 1) <= at.
    const ended = (epoch: number, at: number) => {
      atOrBefore = Math.min(atOrBefore, at - (epoch + 1) * lengthMs);
    };
    const nowMs = now.getTime();
    for (const stake of stakes) {
      const state = stake.blockchain_state;
      const activation = safeEpoch(state.activation_epoch);
      const deactivation = safeEpoch(state.deactivation_epoch);
      if (activation !== null && state.activation_date) inEpoch(activation, timestampToDate(state.activation_date).getTime());
      if (deactivation !== null && state.deactivation_date) inEpoch(deactivation, timestampToDate(state.deactivation_date).getTime());
      if (state.status === "activating" && activation !== null) inEpoch(activation, nowMs);
      if (state.status === "deactivating" && deactivation !== null) inEpoch(deactivation, nowMs);
      if (state.status === "activated" && activation !== null) ended(activation, nowMs);
      if (state.status === "deactivated" && deactivation !== null) ended(deactivation, nowMs);
    }
    if (!Number.isFinite(after) || !Number.isFinite(atOrBefore) || after >= atOrBefore) return null;
    return new SolanaEpochClock(after, atOrBefore, lengthMs);
  }

  /** The latest time epoch `epoch` can start. */
  latestStartOf(epoch: number): Date {
    return minuteAfter(this.atOrBefore + epoch * this.lengthMs);
  }

  /** The latest time the first epoch boundary after `at` can come. */
  latestBoundaryAfter(at: Date): Date {
    const t = at.getTime();
    const L = this.lengthMs;
    // A genesis in the window at exactly t - k×L means an epoch starts at t: the next one is a whole epoch away.
    const k = Math.ceil((t - this.atOrBefore) / L);
    if (t - k * L > this.after) return minuteAfter(t + L);
    const G = this.atOrBefore;
    return minuteAfter(G + (Math.floor((t - G) / L) + 1) * L);
  }
}

function safeEpoch(epoch: bigint | null): number | null {
  const value = epochOrNone(epoch);
  return value === null || value > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(value);
}

/**
 * When a stake can be withdrawn: null when it can be now (deactivated) or cannot be without a
 * deactivation first (activating, activated); for a deactivating stake the start of the epoch
 * after its deactivation, from the account's epoch clock, else its deactivation date plus one
 * epoch (the boundary comes within one epoch of it).
 */
export function stakeWithdrawableAt(stake: SolanaStake, clock: SolanaEpochClock | null): Date | null {
  const state = stake.blockchain_state;
  if (state.status !== "deactivating") return null;
  const deactivation = safeEpoch(state.deactivation_epoch);
  if (clock !== null && deactivation !== null) return clock.latestStartOf(deactivation + 1);
  if (state.deactivation_date) return minuteAfter(timestampToDate(state.deactivation_date).getTime() + SOLANA_EPOCH_MS);
  return null;
}

/** When a stake deactivated at `at` becomes withdrawable: the next epoch boundary (at the latest), or one epoch later without a clock. */
export function withdrawableAfterDeactivationAt(at: Date, clock: SolanaEpochClock | null): Date {
  return clock === null ? minuteAfter(at.getTime() + SOLANA_EPOCH_MS) : clock.latestBoundaryAfter(at);
}
