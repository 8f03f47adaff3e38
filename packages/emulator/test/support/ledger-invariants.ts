import { AccountPage, PolkadotCoinFields, SolanaStake, SolanaStakeList, TransactionPage, type Account, type Transaction } from "@custody/shared";
import { expect } from "vitest";
import { obj } from "./http-client.js";
import { checkStakeRewards, type RewardModel } from "./stake-reward-check.js";
import { OP_A, type Workspace } from "./standard-workspace.js";
import { decode } from "./wire.js";

export interface LedgerModel extends RewardModel {
  /** Value that entered each currency from outside (the initial balances). */
  initial: Map<string, bigint>;
  /** Every stake uid ever seen (withdrawn stakes stay readable by uid). */
  stakeUids: Set<string>;
}

export function newLedgerModel(initial: Map<string, bigint>): LedgerModel {
  return { initial, stakeUids: new Set(), epoch: null, stakes: new Map() };
}

interface Reading {
  accounts: Account[];
  transactions: Transaction[];
  /** Every stake ever seen, withdrawn ones included. */
  stakes: SolanaStake[];
  /** Stakes still open, by account id. */
  openStakes: Map<number, SolanaStake[]>;
  epoch: number;
  epochLengthMs: number;
}

async function clock(w: Workspace): Promise<{ epoch: number; epochLengthMs: number }> {
  const state = obj(await w.control.get("/clock"));
  return { epoch: state.epoch as number, epochLengthMs: (state.epoch_seconds as number) * 1000 };
}

/** Everything the checks need, read within one epoch (read again if an epoch started while reading). */
async function readLedger(w: Workspace, model: LedgerModel): Promise<Reading> {
  const api = w.api(OP_A);
  for (;;) {
    const before = await clock(w);
    const accounts = decode(AccountPage, await api.get("/accounts?page_size=1000")).edges.map((edge) => edge.node);
    const transactions = decode(TransactionPage, await api.get("/transactions?page_size=1000")).edges.map((edge) => edge.node);
    const openStakes = new Map<number, SolanaStake[]>();
    for (const account of accounts.filter((item) => item.type === "Solana")) {
      const stakes = decode(SolanaStakeList, await api.get(`/solana/accounts/${account.id}/stakes`));
      for (const stake of stakes) model.stakeUids.add(stake.uid);
      openStakes.set(account.id, stakes);
    }
    const solAccount = accounts.find((account) => account.type === "Solana");
    const stakes: SolanaStake[] = [];
    for (const uid of model.stakeUids) stakes.push(decode(SolanaStake, await api.get(`/solana/accounts/${solAccount?.id ?? 0}/stakes/${uid}`)));
    const after = await clock(w);
    if (after.epoch === before.epoch) return { accounts, transactions, stakes, openStakes, ...after };
  }
}

/**
 * The properties the issue asks for, read through the API: per currency, what the accounts and
 * open stakes hold plus the fees paid plus what left the workspace equals what entered it plus
 * the stake rewards minted, and every reward was earned (checkStakeRewards). No balance can be
 * reported negative: the schemas refuse it, and the emulator answers 500 rather than clamp one.
 */
export async function checkLedger(w: Workspace, model: LedgerModel): Promise<void> {
  const reading = await readLedger(w, model);
  const own = new Set(reading.accounts.map((account) => account.address.toLowerCase()));
  const sums = new Map<string, bigint>();
  const add = (currency: string, value: bigint) => sums.set(currency, (sums.get(currency) ?? 0n) + value);

  for (const account of reading.accounts) {
    expect(account.available_balance <= account.balance).toBe(true);
    add(account.currency, account.balance);
    if (account.coin_fields.type === "Polkadot") {
      const balances = PolkadotCoinFields.parse(account.coin_fields).balances;
      expect(balances.bonded + balances.total_unbonded + balances.total_unbonding <= balances.free).toBe(true);
    }
    for (const stake of reading.openStakes.get(account.id) ?? []) add(account.currency, stake.blockchain_state.total_balance);
  }
  for (const tx of reading.transactions) {
    add(tx.currency, tx.fees ?? 0n);
    const leaves = (tx.type === "SEND" && !own.has(tx.recipient.toLowerCase())) || tx.type === "EXECUTE_CONTRACT";
    if (tx.status === "SUBMITTED" && leaves) add(tx.currency, tx.amount);
    expect(tx.fees === null || tx.fees <= tx.max_fees).toBe(true);
  }
  checkStakeRewards(model, reading.stakes, reading.epoch, reading.epochLengthMs);
  const rewards = reading.stakes.reduce((total, stake) => total + stake.total_reward, 0n);
  for (const [currency, initial] of model.initial) {
    const minted = currency === "solana_testnet" ? rewards : 0n;
    expect({ currency, value: sums.get(currency) ?? 0n }).toEqual({ currency, value: initial + minted });
  }
}
