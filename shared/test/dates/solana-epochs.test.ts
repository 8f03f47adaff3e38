import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SolanaEpochClock, SOLANA_EPOCH_MS, stakeWithdrawableAt, withdrawableAfterDeactivationAt } from "../../src/dates/solana-epochs.js";
import { SOLANA_EPOCH_NONE, type SolanaStake } from "../../src/schemas/solana-stake.js";

const L = SOLANA_EPOCH_MS;
const GENESIS = Date.parse("2031-01-01T00:00:00Z");
const start = (epoch: number) => GENESIS + epoch * L;
const iso = (ms: number) => new Date(ms).toISOString();

/** A stake as the service shows it: activated (or deactivated) at these times, in the epochs they fall in. */
function stake(activatedAt: number, deactivatedAt: number | null, now: number): SolanaStake {
  const epochOf = (ms: number) => Math.floor((ms - GENESIS) / L);
  const activation = epochOf(activatedAt);
  const deactivation = deactivatedAt === null ? null : epochOf(deactivatedAt);
  const current = epochOf(now);
  const status = deactivation === null ? (current === activation ? "activating" : "activated") : current === deactivation ? "deactivating" : "deactivated";
  return {
    uid: "u",
    account_id: 1,
    account_name: "a",
    currency: "solana_testnet",
    created_on: iso(activatedAt),
    status: "ACTIVE",
    total_reward: 0n,
    actions: [],
    blockchain_state: {
      status,
      activation_epoch: BigInt(activation),
      deactivation_epoch: deactivation === null ? SOLANA_EPOCH_NONE : BigInt(deactivation),
      activation_date: iso(activatedAt),
      deactivation_date: deactivatedAt === null ? null : iso(deactivatedAt),
      active_balance: 0n,
      inactive_balance: 0n,
      total_balance: 0n,
      rent_exempt_reserve: 0n,
      pub_key: "p",
      validator_address: "v",
    },
  } as SolanaStake;
}

describe("Solana epoch dates from the stakes", () => {
  it("dates a deactivating stake's withdrawal at the start of the next epoch, pinned by the other stakes", () => {
    const now = start(12) + 0.4 * L;
    // One stake activated right at an epoch's start, one deactivated in the current epoch.
    const stakes = [stake(start(3) + 1000, null, now), stake(start(5) + 0.7 * L, start(12) + 0.1 * L, now)];
    const clock = SolanaEpochClock.fromStakes(stakes, new Date(now));
    const at = stakeWithdrawableAt(stakes[1] as SolanaStake, clock);
    expect(at?.getTime()).toBeGreaterThanOrEqual(start(13));
    expect(at?.getTime()).toBeLessThanOrEqual(start(13) + 61_000);
    expect(stakeWithdrawableAt(stakes[0] as SolanaStake, clock)).toBeNull();
  });

  it("never dates a withdrawal before the epoch boundary, and at most one epoch after it, whatever the stakes (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 40 * L, noNaN: true }), fc.option(fc.double({ min: 0, max: 10 * L, noNaN: true }))), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (events, phase) => {
          const latest = Math.max(...events.map(([activated, gap]) => activated + (gap ?? 0)));
          // Now comes after every event, in the latest one's epoch or a later one.
          const now = GENESIS + latest + phase * 2 * L;
          const stakes = events.map(([activated, gap]) => stake(GENESIS + activated, gap === null ? null : GENESIS + activated + gap, now));
          const clock = SolanaEpochClock.fromStakes(stakes, new Date(now));
          expect(clock).not.toBeNull();
          const trueNext = start(Math.floor((now - GENESIS) / L) + 1);
          const estimated = withdrawableAfterDeactivationAt(new Date(now), clock).getTime();
          expect(estimated).toBeGreaterThanOrEqual(trueNext);
          expect(estimated).toBeLessThanOrEqual(trueNext + L + 60_000);
        },
      ),
    );
  });

  it("falls back to one epoch after the deactivation date when the stakes contradict an epoch of 2.5 days", () => {
    const now = start(10);
    const contradicting = [stake(start(2) + 10, null, now), { ...stake(start(2) + 20, start(9), now) }];
    const second = contradicting[1] as SolanaStake;
    second.blockchain_state = { ...second.blockchain_state, activation_epoch: 7n, status: "deactivating" };
    const clock = SolanaEpochClock.fromStakes(contradicting, new Date(now));
    expect(clock).toBeNull();
    expect(stakeWithdrawableAt(second, clock)?.getTime()).toBe(start(9) + L);
  });
});
