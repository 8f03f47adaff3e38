import { delimitUntrusted, describeAmount, type Currency, type EthereumStake, type SolanaStake } from "@custody/shared";

/** The actions a Solana stake allows now, by their last path segment. */
export function stakeActionNames(stake: SolanaStake): string[] {
  return stake.actions.map((action) => action.split("/").at(-1) ?? action);
}

export function solanaStakeLine(stake: SolanaStake, currency: Currency): string {
  const state = stake.blockchain_state;
  return `stake ${stake.uid} ${state.status}: total ${describeAmount(state.total_balance, currency)}, active ${describeAmount(state.active_balance, currency)}, validator ${state.validator_address}, actions: ${stakeActionNames(stake).join(", ") || "none"}`;
}

export function ethereumStakeLine(stake: EthereumStake, currency: Currency): string {
  return `position ${stake.id} ${stake.status}: ${describeAmount(stake.amount, currency)} with ${delimitUntrusted("provider", stake.provider)} (${stake.contract_address}), rewards ${describeAmount(stake.total_reward, currency)}`;
}
