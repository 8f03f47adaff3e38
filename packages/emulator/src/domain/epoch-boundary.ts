import type { Tx } from "../context.js";
import { epochReward } from "../networks/solana-stake-state.js";
import type { SolanaStakeRow } from "../store/state-types.js";
import { openSolanaStakes } from "./stake-lookups.js";

function rewarded(stake: SolanaStakeRow, reward: bigint): SolanaStakeRow {
  return reward === 0n ? stake : { ...stake, total_balance: stake.total_balance + reward, total_reward: stake.total_reward + reward };
}

/**
 * The start of `count` consecutive epochs, the first being `epoch`. At the first: activated and
 * deactivating stakes earn the epoch's rewards (a deactivating stake its last; one deactivated in
 * the epoch it was activating in was never in effect and earns nothing), then activating stakes
 * become activated and deactivating ones deactivated. The further epochs of the batch (nothing
 * else happens between them) each pay the activated stakes one more epoch's reward.
 */
export function processEpochStarts(tx: Tx, epoch: number, count: number, epochLengthMs: number): void {
  for (const stake of openSolanaStakes(tx)) {
    let next = stake;
    if (next.state === "activated" || next.state === "deactivating") next = rewarded(next, epochReward(next, epochLengthMs));
    if (next.state === "activating") next = { ...next, state: "activated" };
    else if (next.state === "deactivating") next = { ...next, state: "deactivated" };
    if (count > 1 && next.state === "activated") next = rewarded(next, epochReward(next, epochLengthMs) * BigInt(count - 1));
    if (next !== stake) tx.put("solana_stakes", next.uid, next);
  }
  const meta = tx.meta();
  tx.putMeta({ ...meta, processed_epoch: epoch + count - 1 });
}
