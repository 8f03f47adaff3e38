import {
  delimitUntrusted,
  describeAmount,
  momentText,
  stakeWithdrawableAt,
  type Currency,
  type EthereumStake,
  type SolanaEpochClock,
  type SolanaStake,
} from "@custody/shared";
import { z } from "zod";
import { AmountView, Entity } from "./view-schemas.js";
import { recordView } from "./workspace-view.js";

/** A Solana stake: the spec's fields, amounts in both units, its actions by name, and whether and when it can be withdrawn. */
export const SolanaStakeView = z.looseObject({
  uid: z.string(),
  account_id: z.number(),
  status: z.string(),
  total_reward: AmountView,
  blockchain_state: Entity,
  actions: z.array(z.string()),
  withdrawable: z.boolean(),
  withdrawable_at: z.string().nullable(),
});

/** An Ethereum staking position: the emulator's fields, amounts in both units. */
export const EthereumStakeView = z.looseObject({
  id: z.string(),
  account_id: z.number(),
  provider: z.string(),
  contract_address: z.string(),
  amount: AmountView,
  total_reward: AmountView,
  status: z.string(),
});

/** The actions a Solana stake allows now, by their last path segment. */
export function stakeActionNames(stake: SolanaStake): string[] {
  return stake.actions.map((action) => action.split("/").at(-1) ?? action);
}

/** A stake with its amounts in both units, its actions by name, and whether and when it can be withdrawn. */
export function solanaStakeView(stake: SolanaStake, currency: Currency, clock: SolanaEpochClock | null): z.infer<typeof SolanaStakeView> {
  const at = stakeWithdrawableAt(stake, clock);
  return {
    ...(recordView(stake, currency) as z.infer<typeof SolanaStakeView>),
    actions: stakeActionNames(stake),
    withdrawable: stake.blockchain_state.status === "deactivated",
    withdrawable_at: at === null ? null : at.toISOString(),
  };
}

function withdrawalText(stake: SolanaStake, clock: SolanaEpochClock | null): string {
  const status = stake.blockchain_state.status;
  if (status === "deactivated") return ", withdrawable now";
  const at = stakeWithdrawableAt(stake, clock);
  return at === null ? "" : `, withdrawable from about ${momentText(at)}`;
}

export function solanaStakeLine(stake: SolanaStake, currency: Currency, clock: SolanaEpochClock | null): string {
  const state = stake.blockchain_state;
  return (
    `stake ${stake.uid} ${state.status}: total ${describeAmount(state.total_balance, currency)}, active ` +
    `${describeAmount(state.active_balance, currency)}${withdrawalText(stake, clock)}, validator ` +
    `${state.validator_address}, actions: ${stakeActionNames(stake).join(", ") || "none"}`
  );
}

export function ethereumStakeLine(stake: EthereumStake, currency: Currency): string {
  return (
    `position ${stake.id} ${stake.status}: ${describeAmount(stake.amount, currency)} with ` +
    `${delimitUntrusted("provider", stake.provider)} (${stake.contract_address}), rewards ` +
    `${describeAmount(stake.total_reward, currency)}`
  );
}
