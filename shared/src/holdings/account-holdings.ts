import type { CustodyClient } from "../client/custody-client.js";
import type { CallOptions } from "../client/client-options.js";
import { unbondingChunks, type UnlockingChunk } from "../dates/polkadot-unlocks.js";
import { SolanaEpochClock, stakeWithdrawableAt } from "../dates/solana-epochs.js";
import { accountNetwork, isPolkadotAccount, type Account, type Network } from "../schemas/account.js";
import type { EthereumStake } from "../schemas/ethereum-stake.js";
import { polkadotFrozen } from "../schemas/polkadot-coin-fields.js";
import { SolanaStakeState, type SolanaStake } from "../schemas/solana-stake.js";
import type { Transaction } from "../schemas/transaction.js";
import type { UnfinishedListing } from "./unfinished-transactions.js";
import { fundsHeld } from "./funds-held.js";

/** The stakes of one state, with their total; a deactivating group says when its last one becomes withdrawable. */
export interface StakeGroup {
  state: SolanaStakeState;
  uids: string[];
  total: bigint;
  withdrawable_at: Date | null;
}

/** An unfinished transaction and what it holds out of the available balance. */
export interface FundsHold {
  transaction_id: number;
  type: string;
  status: string;
  amount: bigint;
}

/** Why available is below balance: the staking lock, the transactions holding funds, and what neither explains. */
export interface AvailableGap {
  gap: bigint;
  locked_by_staking: bigint;
  holds: FundsHold[];
  unexplained: bigint;
  /** The unfinished transactions could not be listed; the holds are then unknown. */
  listing_failure: string | null;
}

/**
 * What one account holds, in base units, from its record, its unfinished transactions and its
 * stakes: the balance, what is available, staked (and whether that is inside the balance),
 * Polkadot's bonded and unbonding (dated), what can be withdrawn now, Solana stakes by state,
 * Ethereum positions, and why available is below balance.
 */
export interface AccountHoldings {
  account: Account;
  network: Network | null;
  balance: bigint;
  available: bigint;
  /** Solana: activating, activated and deactivating stakes; Polkadot: bonded; Ethereum: positions not exited. */
  staked: bigint;
  /** Polkadot's bonded funds are part of the balance; Solana stakes and Ethereum deposits have left it. */
  staked_in_balance: boolean;
  bonded: bigint | null;
  unbonding: UnlockingChunk[];
  /** Can be moved back to the balance now: deactivated Solana stakes, Polkadot unbonded funds. */
  withdrawable: bigint;
  /** balance, plus what is staked or withdrawable outside it. */
  total: bigint;
  stakes: StakeGroup[];
  positions: EthereumStake[];
  below_balance: AvailableGap;
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}

function stakeGroups(stakes: readonly SolanaStake[], now: Date): StakeGroup[] {
  const clock = SolanaEpochClock.fromStakes(stakes, now);
  return SolanaStakeState.options.flatMap((state) => {
    const members = stakes.filter((stake) => stake.blockchain_state.status === state);
    if (members.length === 0) return [];
    const dates = members.map((stake) => stakeWithdrawableAt(stake, clock)).filter((date): date is Date => date !== null);
    const latest = dates.length === 0 ? null : new Date(Math.max(...dates.map((date) => date.getTime())));
    return [
      { state, uids: members.map((stake) => stake.uid), total: sum(members.map((stake) => stake.blockchain_state.total_balance)), withdrawable_at: latest },
    ];
  });
}

function gapOf(account: Account, locked: bigint, unfinished: UnfinishedListing): AvailableGap {
  const gap = account.balance - account.available_balance;
  if ("failure" in unfinished) return { gap, locked_by_staking: locked, holds: [], unexplained: gap - locked, listing_failure: unfinished.failure };
  const holds = unfinished.transactions
    .filter((tx: Transaction) => tx.account_id === account.id)
    .map((tx) => ({ transaction_id: tx.id, type: tx.type, status: tx.status, amount: fundsHeld(tx) }))
    .filter((hold) => hold.amount > 0n);
  return { gap, locked_by_staking: locked, holds, unexplained: gap - locked - sum(holds.map((hold) => hold.amount)), listing_failure: null };
}

/**
 * The account's holdings. `unfinished` is the listing of unfinished transactions (of this account
 * or of every account); `now` the service's time, which dates the unbonding and the stakes.
 */
export async function accountHoldings(
  client: CustodyClient,
  account: Account,
  unfinished: UnfinishedListing,
  now: Date,
  options: CallOptions = {},
): Promise<AccountHoldings> {
  const network = accountNetwork(account);
  const base = { account, network, balance: account.balance, available: account.available_balance, bonded: null, unbonding: [], stakes: [], positions: [] };
  if (isPolkadotAccount(account)) {
    const balances = account.coin_fields.balances;
    return {
      ...base,
      staked: balances.bonded,
      staked_in_balance: true,
      bonded: balances.bonded,
      unbonding: unbondingChunks(balances, now),
      withdrawable: balances.total_unbonded,
      total: account.balance,
      below_balance: gapOf(account, polkadotFrozen(balances), unfinished),
    };
  }
  if (network === "Solana") {
    const stakes = await client.listSolanaStakes(account.id, options);
    const groups = stakeGroups(stakes, now);
    const total = (states: readonly SolanaStakeState[]) => sum(groups.filter((group) => states.includes(group.state)).map((group) => group.total));
    const staked = total(["activating", "activated", "deactivating"]);
    const withdrawable = total(["deactivated"]);
    return {
      ...base,
      staked,
      staked_in_balance: false,
      withdrawable,
      total: account.balance + staked + withdrawable,
      stakes: groups,
      below_balance: gapOf(account, 0n, unfinished),
    };
  }
  if (network === "Ethereum") {
    const positions = await client.listAllEthereumStakes(account.id, { ...options, pageSize: 100, maxPages: 20 });
    const staked = sum(positions.filter((position) => position.status !== "EXITED").map((position) => position.amount));
    return {
      ...base,
      staked,
      staked_in_balance: false,
      withdrawable: 0n,
      total: account.balance + staked,
      positions,
      below_balance: gapOf(account, 0n, unfinished),
    };
  }
  return { ...base, staked: 0n, staked_in_balance: false, withdrawable: 0n, total: account.balance, below_balance: gapOf(account, 0n, unfinished) };
}
