import type { WriteIdentity } from "./kit/write-spec.js";

/**
 * How every surface names each kind of write (its tool, toolset and title), apart from the writes
 * themselves: what must know which tools are guarded writes without loading them (a server's start,
 * answering tools/list from its catalogue) reads this, and each kind's spec takes its identity from here.
 */
export const WRITE_IDENTITIES = {
  send: { tool: "create_transaction", toolset: "transactions", title: "Send funds" },
  approve_transaction: { tool: "approve_transaction", toolset: "transactions", title: "Approve a pending transaction" },
  solana_create_stake: { tool: "solana_create_stake", toolset: "solana_staking", title: "Stake SOL" },
  solana_deactivate_stake: { tool: "solana_deactivate_stake", toolset: "solana_staking", title: "Deactivate a Solana stake" },
  solana_withdraw_stake: { tool: "solana_withdraw_stake", toolset: "solana_staking", title: "Withdraw a Solana stake" },
  solana_delegate_stake: { tool: "solana_delegate_stake", toolset: "solana_staking", title: "Re-delegate a Solana stake" },
  solana_split_stake: { tool: "solana_split_stake", toolset: "solana_staking", title: "Split a Solana stake" },
  solana_split_deactivate_stake: { tool: "solana_split_deactivate_stake", toolset: "solana_staking", title: "Split and deactivate part of a Solana stake" },
  polkadot_bond_extra: { tool: "polkadot_bond_extra", toolset: "polkadot_staking", title: "Bond more DOT" },
  polkadot_unbond: { tool: "polkadot_unbond", toolset: "polkadot_staking", title: "Unbond DOT" },
  polkadot_rebond: { tool: "polkadot_rebond", toolset: "polkadot_staking", title: "Rebond DOT" },
  polkadot_withdraw_unbonded: { tool: "polkadot_withdraw_unbonded", toolset: "polkadot_staking", title: "Withdraw unbonded DOT" },
  polkadot_set_payee: { tool: "polkadot_set_payee", toolset: "polkadot_staking", title: "Set the DOT rewards destination" },
  ethereum_stake: { tool: "ethereum_stake", toolset: "ethereum_staking", title: "Stake ETH" },
} as const satisfies Record<string, WriteIdentity>;

/** Every guarded write's identity, in the registry's order. */
export const WRITE_TOOL_IDENTITIES: readonly WriteIdentity[] = Object.values(WRITE_IDENTITIES);
