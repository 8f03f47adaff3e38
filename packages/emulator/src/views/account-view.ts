import type { Account, AccountBalance } from "@custody/shared";
import { polkadotBalances, polkadotStaking } from "../networks/polkadot-ledger.js";
import { pureProxyOf } from "../networks/polkadot-pure-proxy.js";
import { spendableFunds } from "../networks/spendable-funds.js";
import type { AccountRow } from "../store/state-types.js";

/** What the account holds: Polkadot free + reserved; otherwise its own (liquid) funds. Stakes are apart. */
export function accountBalance(account: AccountRow): bigint {
  return account.polkadot ? account.free + account.polkadot.reserved : account.free;
}

/** What can be spent now: Polkadot free minus locks; minus what pending outgoing transactions hold. */
export function availableBalance(account: AccountRow, now: number): bigint {
  if (account.polkadot) return polkadotBalances(account, now).available;
  return spendableFunds(account, 0n, account.in_flight);
}

export function accountView(account: AccountRow, now: number): Account {
  const coinFields: Account["coin_fields"] = account.polkadot
    ? { type: "Polkadot", balances: polkadotBalances(account, now), staking: polkadotStaking(account), anonymous_proxy: pureProxyOf(account) }
    : { type: account.network };
  return {
    id: account.id,
    name: account.name,
    address: account.address,
    balance: accountBalance(account),
    available_balance: availableBalance(account, now),
    currency: account.currency,
    type: account.network,
    index: account.index,
    coin_fields: coinFields,
    governance_rules: account.governance,
  };
}

/** GET /accounts/{id}/balance: the account's balances, plus Polkadot's and, given, the staked balance. */
export function balanceView(account: AccountRow, now: number, stakedBalance: bigint | undefined): AccountBalance {
  const view: AccountBalance = {
    account_id: account.id,
    currency: account.currency,
    balance: accountBalance(account),
    available_balance: availableBalance(account, now),
  };
  if (account.polkadot) view.balances = polkadotBalances(account, now);
  if (stakedBalance !== undefined) view.staked_balance = stakedBalance;
  return view;
}
