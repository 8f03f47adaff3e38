import { describe, expect, it } from "vitest";
import { polkadotBalances } from "../src/networks/polkadot-ledger.js";
import type { AccountRow } from "../src/store/state-types.js";
import { accountView, availableBalance } from "../src/views/account-view.js";

const NOW = 1_700_000_000_000;

function account(free: bigint, inFlight: bigint, bonded: bigint | null): AccountRow {
  return {
    id: 7,
    name: "broken",
    network: bonded === null ? "Solana" : "Polkadot",
    currency: bonded === null ? "solana_testnet" : "polkadot",
    index: 0,
    address: "address",
    created_on_ms: NOW,
    free,
    in_flight: inFlight,
    polkadot: bonded === null ? null : { bonded, reserved: 0n, unbonding: [], rewards_destination: "Staked", controller_address: "", proxies: [] },
    governance: { transaction: { creators: [], steps: [] }, staking: null, smart_contract: null },
  };
}

describe("available balance: a ledger whose commitments exceed its funds is a bug to surface, not a 0 to report", () => {
  it("is free minus what is committed when that is not negative", () => {
    expect(availableBalance(account(100n, 40n, null), NOW)).toBe(60n);
    expect(availableBalance(account(100n, 100n, null), NOW)).toBe(0n);
    expect(polkadotBalances(account(100n, 10n, 30n), NOW).available).toBe(60n);
  });

  it("throws an invariant error naming the account and the shortfall when in_flight exceeds the funds", () => {
    expect(() => availableBalance(account(100n, 101n, null), NOW)).toThrow(/ledger invariant broken: account 7 .*free 100\b.*in_flight 101/);
    expect(() => accountView(account(100n, 101n, null), NOW)).toThrow(/ledger invariant broken/);
  });

  it("throws for Polkadot when the staking lock plus in_flight exceeds the free balance", () => {
    expect(() => polkadotBalances(account(100n, 0n, 101n), NOW)).toThrow(/ledger invariant broken: account 7 .*free 100\b.*frozen 101/);
    expect(() => polkadotBalances(account(100n, 50n, 60n), NOW)).toThrow(/ledger invariant broken: account 7 .*in_flight 50/);
  });
});
