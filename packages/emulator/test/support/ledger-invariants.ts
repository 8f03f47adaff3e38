import { AccountPage, PolkadotCoinFields, SolanaStake, SolanaStakeList, TransactionPage } from "@custody/shared";
import { expect } from "vitest";
import { OP_A, type Workspace } from "./standard-workspace.js";
import { decode } from "./wire.js";

export interface LedgerModel {
  /** Value that entered each currency from outside (the initial balances). */
  initial: Map<string, bigint>;
  /** Every stake uid ever seen (withdrawn stakes stay readable by uid). */
  stakeUids: Set<string>;
}

/**
 * The properties the issue asks for, read through the API: no balance is negative, and per
 * currency, what the accounts and open stakes hold plus the fees paid plus what left the
 * workspace equals what entered it plus the stake rewards minted.
 */
export async function checkLedger(w: Workspace, model: LedgerModel): Promise<void> {
  const api = w.api(OP_A);
  const accounts = decode(AccountPage, await api.get("/accounts?page_size=1000")).edges.map((edge) => edge.node);
  const transactions = decode(TransactionPage, await api.get("/transactions?page_size=1000")).edges.map((edge) => edge.node);
  const own = new Set(accounts.map((account) => account.address.toLowerCase()));
  const sums = new Map<string, bigint>();
  const add = (currency: string, value: bigint) => sums.set(currency, (sums.get(currency) ?? 0n) + value);

  for (const account of accounts) {
    expect(account.balance >= 0n && account.available_balance >= 0n).toBe(true);
    expect(account.available_balance <= account.balance).toBe(true);
    add(account.currency, account.balance);
    if (account.coin_fields.type === "Polkadot") {
      const balances = PolkadotCoinFields.parse(account.coin_fields).balances;
      for (const value of [balances.available, balances.bonded, balances.free, balances.total, balances.total_unbonded, balances.total_unbonding]) {
        expect(value >= 0n).toBe(true);
      }
      expect(balances.bonded + balances.total_unbonded + balances.total_unbonding <= balances.free).toBe(true);
    }
    if (account.type === "Solana") {
      const stakes = decode(SolanaStakeList, await api.get(`/solana/accounts/${account.id}/stakes`));
      for (const stake of stakes) {
        model.stakeUids.add(stake.uid);
        expect(stake.blockchain_state.total_balance >= 0n && stake.blockchain_state.active_balance >= 0n).toBe(true);
        add(account.currency, stake.blockchain_state.total_balance);
      }
    }
  }
  for (const tx of transactions) {
    add(tx.currency, tx.fees ?? 0n);
    const leaves = (tx.type === "SEND" && !own.has(tx.recipient.toLowerCase())) || tx.type === "EXECUTE_CONTRACT";
    if (tx.status === "SUBMITTED" && leaves) add(tx.currency, tx.amount);
    expect(tx.fees === null || tx.fees <= tx.max_fees).toBe(true);
  }
  let rewards = 0n;
  const solAccount = accounts.find((account) => account.type === "Solana");
  for (const uid of model.stakeUids) {
    const stake = decode(SolanaStake, await api.get(`/solana/accounts/${solAccount?.id ?? 0}/stakes/${uid}`));
    rewards += stake.total_reward;
  }
  for (const [currency, initial] of model.initial) {
    const minted = currency === "solana_testnet" ? rewards : 0n;
    expect({ currency, value: sums.get(currency) ?? 0n }).toEqual({ currency, value: initial + minted });
  }
}
