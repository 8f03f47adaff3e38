import { delimitUntrusted, describeAmount, momentText, stakeWithdrawableAt, type Currency, type EthereumStake, type SolanaEpochClock, type SolanaStake } from "@custody/shared";
import { workspaceView } from "./workspace-view.js";

/** The actions a Solana stake allows now, by their last path segment. */
export function stakeActionNames(stake: SolanaStake): string[] {
  return stake.actions.map((action) => action.split("/").at(-1) ?? action);
}

/** A stake with its amounts in both units, its actions by name, and whether and when it can be withdrawn. */
export function solanaStakeView(stake: SolanaStake, currency: Currency, clock: SolanaEpochClock | null): Record<string, unknown> {
  const at = stakeWithdrawableAt(stake, clock);
  return {
    ...(workspaceView(stake, currency) as object),
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
  return `stake ${stake.uid} ${state.status}: total ${describeAmount(state.total_balance, currency)}, active ${describeAmount(state.active_balance, currency)}${withdrawalText(stake, clock)}, validator ${state.validator_address}, actions: ${stakeActionNames(stake).join(", ") || "none"}`;
}

export function ethereumStakeLine(stake: EthereumStake, currency: Currency): string {
  return `position ${stake.id} ${stake.status}: ${describeAmount(stake.amount, currency)} with ${delimitUntrusted("provider", stake.provider)} (${stake.contract_address}), rewards ${describeAmount(stake.total_reward, currency)}`;
}
