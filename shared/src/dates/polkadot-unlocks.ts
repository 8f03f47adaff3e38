import type { PolkadotBalances } from "../schemas/polkadot-coin-fields.js";

/** An unbonding chunk with the moment it unlocks: the service's now plus its waiting_time (seconds). */
export interface UnlockingChunk {
  amount: bigint;
  waiting_time_seconds: number;
  unlocks_at: Date;
}

/** The account's unbonding chunks, soonest first, each dated from the service's now. */
export function unbondingChunks(balances: Pick<PolkadotBalances, "unbonding">, now: Date): UnlockingChunk[] {
  return balances.unbonding
    .map((entry) => ({ amount: entry.amount, waiting_time_seconds: entry.waiting_time, unlocks_at: new Date(now.getTime() + entry.waiting_time * 1000) }))
    .sort((a, b) => a.waiting_time_seconds - b.waiting_time_seconds);
}
