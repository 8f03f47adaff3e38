import type { AccountRow, EthereumStakeRow, SolanaStakeRow } from "../store/state-types.js";
import { indexed, type Reader } from "./lookups.js";

/** The Solana stakes not withdrawn, in creation order: what an epoch start works on. */
export function openSolanaStakes(reader: Reader): SolanaStakeRow[] {
  return indexed(reader, "solana_stakes", reader.indexes.stakes.openSolana(), (stake) => stake.closed_on_ms === null).sort(byCreation);
}

/** The account's Solana stakes (withdrawn ones included), in creation order. */
export function solanaStakesOf(reader: Reader, accountId: number): SolanaStakeRow[] {
  return indexed(reader, "solana_stakes", reader.indexes.stakes.solanaOf(accountId), (stake) => stake.account_id === accountId).sort(byCreation);
}

/** The account's Ethereum staking positions (no order). */
export function ethereumStakesOf(reader: Reader, accountId: number): EthereumStakeRow[] {
  return indexed(reader, "ethereum_stakes", reader.indexes.stakes.ethereumOf(accountId), (stake) => stake.account_id === accountId);
}

/** What the account has staked (Solana: stakes not withdrawn; Ethereum: its positions); undefined on other networks. */
export function stakedBalanceOf(reader: Reader, account: AccountRow): bigint | undefined {
  let staked = 0n;
  if (account.network === "Solana") {
    for (const stake of solanaStakesOf(reader, account.id)) if (stake.closed_on_ms === null) staked += stake.total_balance;
    return staked;
  }
  if (account.network === "Ethereum") {
    for (const stake of ethereumStakesOf(reader, account.id)) staked += stake.amount;
    return staked;
  }
  return undefined;
}

function byCreation(a: SolanaStakeRow, b: SolanaStakeRow): number {
  return a.created_on_ms - b.created_on_ms || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
}
