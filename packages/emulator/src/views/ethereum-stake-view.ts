import type { EthereumStake } from "@custody/shared";
import { isoWithOffset } from "../clock/timestamps.js";
import { ETHEREUM_REWARD_BPS, YEAR_MS } from "../networks/network-constants.js";
import type { AccountRow, EthereumStakeRow } from "../store/state-types.js";

/** A position: PENDING until its validator is active a day after the deposit; rewards accrue from then at 3.5 % a year. */
export function ethereumStakeView(stake: EthereumStakeRow, account: AccountRow, now: number): EthereumStake {
  const active = now >= stake.activation_ms;
  const earningMs = active ? BigInt(now - stake.activation_ms) : 0n;
  return {
    id: stake.id,
    account_id: stake.account_id,
    account_name: account.name,
    currency: account.currency,
    provider: stake.provider,
    contract_address: stake.contract_address,
    amount: stake.amount,
    total_reward: (stake.amount * ETHEREUM_REWARD_BPS * earningMs) / (10_000n * BigInt(YEAR_MS)),
    status: active ? "ACTIVE" : "PENDING",
    transaction_id: stake.transaction_id,
    created_on: isoWithOffset(stake.created_on_ms),
    activation_date: active ? isoWithOffset(stake.activation_ms) : null,
  };
}
