import type { RunningEmulator } from "@custody/emulator";
import { accountNamed, DEMO, directClient, ownDepositCallData } from "./demo-workspace.js";

/** One valid call of every tool on the demo workspace (writes without a token: dry runs), as staking-bot or treasury-bot. */
export async function toolTour(emulator: RunningEmulator): Promise<{ tool: string; args: Record<string, unknown>; operator: string }[]> {
  const sol = await accountNamed(emulator, DEMO.solTreasury);
  const stakes = await directClient(emulator, DEMO.stakingBot).listSolanaStakes(sol.id);
  const active = stakes.find((stake) => stake.blockchain_state.status === "activated");
  const deactivated = stakes.find((stake) => stake.blockchain_state.status === "deactivated");
  if (!active || !deactivated) throw new Error("the demo workspace lacks an activated and a deactivated stake");
  const recipient = (await accountNamed(emulator, DEMO.solCold)).address;
  const pending = (await directClient(emulator).searchTransactions({ status: "PENDING_APPROVAL" })).edges[0]?.node;
  if (!pending) throw new Error("the demo workspace has no pending transaction");
  const t = DEMO.treasuryBot;
  const s = DEMO.stakingBot;
  return [
    { tool: "health_check", args: {}, operator: t },
    { tool: "list_users", args: {}, operator: t },
    { tool: "list_accounts", args: {}, operator: t },
    { tool: "get_account", args: { account: DEMO.dotStaking }, operator: t },
    { tool: "get_account_balance", args: { account: DEMO.dotStaking }, operator: t },
    { tool: "get_holdings", args: {}, operator: t },
    { tool: "sync_account", args: { account: String(sol.id) }, operator: t },
    { tool: "get_transaction", args: { transaction_id: 1 }, operator: t },
    { tool: "get_transaction_history", args: { transaction_id: 1 }, operator: t },
    { tool: "search_transactions", args: { status: "PENDING_APPROVAL" }, operator: t },
    { tool: "list_pending_approvals", args: {}, operator: t },
    { tool: "list_activity", args: {}, operator: t },
    { tool: "get_request_status", args: { transaction_id: pending.id }, operator: t },
    { tool: "estimate_fees", args: { account: DEMO.solTreasury, amount: "1", unit: "SOL", recipient }, operator: t },
    { tool: "get_currency", args: { currency: "solana_testnet" }, operator: t },
    { tool: "list_tokens", args: {}, operator: t },
    { tool: "list_solana_stakes", args: { account: DEMO.solTreasury }, operator: t },
    { tool: "get_solana_stake", args: { account: DEMO.solTreasury, stake_uid: active.uid }, operator: t },
    { tool: "list_ethereum_stakes", args: { account: DEMO.ethStaking }, operator: t },
    { tool: "create_operator", args: { name: "tour-bot" }, operator: t },
    { tool: "register_operator", args: { name: "tour-bot", uuid: "00000000-0000-4000-8000-000000000000" }, operator: t },
    { tool: "create_transaction", args: { account: DEMO.solTreasury, recipient, amount: "1", unit: "SOL" }, operator: t },
    { tool: "approve_transaction", args: { transaction_id: pending.id }, operator: t },
    {
      tool: "solana_create_stake",
      args: { account: DEMO.solTreasury, amount: "5", unit: "SOL", validator: active.blockchain_state.validator_address },
      operator: s,
    },
    { tool: "solana_deactivate_stake", args: { account: DEMO.solTreasury, stake_uid: active.uid }, operator: s },
    { tool: "solana_withdraw_stake", args: { account: DEMO.solTreasury, stake_uid: deactivated.uid }, operator: s },
    {
      tool: "solana_delegate_stake",
      args: { account: DEMO.solTreasury, stake_uid: active.uid, validator: active.blockchain_state.validator_address },
      operator: s,
    },
    { tool: "solana_split_stake", args: { account: DEMO.solTreasury, stake_uid: active.uid, amount: "1", unit: "SOL" }, operator: s },
    { tool: "solana_split_deactivate_stake", args: { account: DEMO.solTreasury, stake_uid: active.uid, amount: "1", unit: "SOL" }, operator: s },
    { tool: "polkadot_bond_extra", args: { account: DEMO.dotStaking, amount: "1", unit: "DOT" }, operator: t },
    { tool: "polkadot_unbond", args: { account: DEMO.dotStaking, amount: "1", unit: "DOT" }, operator: t },
    { tool: "polkadot_rebond", args: { account: DEMO.dotStaking, amount: "1", unit: "DOT" }, operator: t },
    { tool: "polkadot_withdraw_unbonded", args: { account: DEMO.dotStaking }, operator: t },
    { tool: "polkadot_set_payee", args: { account: DEMO.dotStaking, payee: "Stash" }, operator: t },
    {
      tool: "ethereum_stake",
      args: { account: DEMO.ethStaking, contract: DEMO.kilnContract, contract_data: await ownDepositCallData(emulator), amount: "32", unit: "ETH" },
      operator: s,
    },
  ];
}
