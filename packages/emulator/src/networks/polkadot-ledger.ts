import type { PolkadotBalances, PolkadotStaking, UnbondingEntry } from "@custody/shared";
import type { AccountRow, PolkadotLedger } from "../store/state-types.js";
import { POLKADOT_UNBONDING_MS } from "./network-constants.js";
import { spendableFunds } from "./spendable-funds.js";

function sum(entries: readonly { amount: bigint }[]): bigint {
  return entries.reduce((total, entry) => total + entry.amount, 0n);
}

export function requireLedger(account: AccountRow): PolkadotLedger {
  if (!account.polkadot) throw new Error(`account ${account.id} is not a Polkadot account`);
  return account.polkadot;
}

/**
 * The balances of coin_fields at a time. Chunks whose 28 days have passed are `unbonded`
 * (waiting_time 0); `frozen` is the staking lock (bonded + unbonding + unbonded); `available`
 * is free minus frozen minus what the account's pending outgoing transactions hold (never
 * negative: see spendableFunds).
 */
export function polkadotBalances(account: AccountRow, now: number, inFlight: bigint = account.in_flight): PolkadotBalances {
  const ledger = requireLedger(account);
  const unbonding: UnbondingEntry[] = [];
  const unbonded: UnbondingEntry[] = [];
  for (const chunk of ledger.unbonding) {
    if (chunk.unlock_at_ms > now) unbonding.push({ amount: chunk.amount, waiting_time: Math.ceil((chunk.unlock_at_ms - now) / 1000) });
    else unbonded.push({ amount: chunk.amount, waiting_time: 0 });
  }
  const totalUnbonding = sum(unbonding);
  const totalUnbonded = sum(unbonded);
  const frozen = ledger.bonded + totalUnbonding + totalUnbonded;
  return {
    available: spendableFunds(account, frozen, inFlight),
    bonded: ledger.bonded,
    free: account.free,
    reserved: ledger.reserved,
    total: account.free + ledger.reserved,
    frozen,
    total_unbonded: totalUnbonded,
    total_unbonding: totalUnbonding,
    unbonded,
    unbonding,
  };
}

export function polkadotStaking(account: AccountRow): PolkadotStaking {
  const ledger = requireLedger(account);
  return { controller_address: ledger.controller_address, proxies: [...ledger.proxies], rewards_destination: ledger.rewards_destination };
}

/** BONDEXTRA: available to bonded. */
export function bondExtra(ledger: PolkadotLedger, amount: bigint): PolkadotLedger {
  return { ...ledger, bonded: ledger.bonded + amount };
}

/** UNBOND: bonded to a chunk that unlocks 28 days later. */
export function unbond(ledger: PolkadotLedger, amount: bigint, now: number): PolkadotLedger {
  return {
    ...ledger,
    bonded: ledger.bonded - amount,
    unbonding: [...ledger.unbonding, { amount, unlock_at_ms: now + POLKADOT_UNBONDING_MS }],
  };
}

/** REBOND: unbonding, then unbonded, funds back to bonded, the most recently unbonded first. */
export function rebond(ledger: PolkadotLedger, amount: bigint): PolkadotLedger {
  let left = amount;
  const chunks = [...ledger.unbonding].sort((a, b) => b.unlock_at_ms - a.unlock_at_ms);
  const kept: typeof chunks = [];
  for (const chunk of chunks) {
    if (left === 0n) kept.push(chunk);
    else if (chunk.amount <= left) left -= chunk.amount;
    else {
      kept.push({ ...chunk, amount: chunk.amount - left });
      left = 0n;
    }
  }
  if (left !== 0n) throw new Error("rebond beyond the unbonding and unbonded funds");
  kept.sort((a, b) => a.unlock_at_ms - b.unlock_at_ms);
  return { ...ledger, bonded: ledger.bonded + amount, unbonding: kept };
}

/** WITHDRAWUNBONDED: the unbonded chunks leave the lock (to available). */
export function withdrawUnbonded(ledger: PolkadotLedger, now: number): PolkadotLedger {
  return { ...ledger, unbonding: ledger.unbonding.filter((chunk) => chunk.unlock_at_ms > now) };
}

export function setPayee(ledger: PolkadotLedger, payee: string): PolkadotLedger {
  return { ...ledger, rewards_destination: payee };
}
