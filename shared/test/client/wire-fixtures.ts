import type { AccountWire } from "../../src/schemas/account.js";
import type { Health } from "../../src/schemas/health.js";
import type { SolanaStakeWire } from "../../src/schemas/solana-stake.js";
import type { TransactionWire } from "../../src/schemas/transaction.js";
import type { UserRecord } from "../../src/schemas/user.js";
import { POLKADOT_RECIPIENT, SOLANA_RECIPIENT, SOLANA_VALIDATOR } from "../currency-fixtures.js";

/** A Polkadot total above 2^64: it must come out of the client as this exact bigint. */
export const BIG_POLKADOT_TOTAL = 18_446_744_073_709_551_739n;

export const polkadotAccountWire: AccountWire = {
  id: 7,
  name: "dot-main",
  address: POLKADOT_RECIPIENT,
  balance: "18446744073709551739",
  available_balance: "12000000000",
  currency: "DOT",
  type: "Polkadot",
  coin_fields: {
    type: "Polkadot",
    balances: {
      available: 12_000_000_000n,
      bonded: 18_446_744_061_709_551_739n,
      frozen: 0,
      free: BIG_POLKADOT_TOTAL,
      reserved: 0,
      total: BIG_POLKADOT_TOTAL,
      total_unbonded: 5_000_000_000,
      total_unbonding: 7_000_000_000,
      unbonded: [{ amount: 5_000_000_000, waiting_time: 0 }],
      unbonding: [{ amount: 7_000_000_000, waiting_time: 2_419_200 }],
    },
    staking: {
      controller_address: POLKADOT_RECIPIENT,
      proxies: [],
      rewards_destination: "Staked",
    },
  },
};

export const STAKE_UID = "8d2a54a4-3f5e-4b8c-9a7d-2f1e0c6b5a49";

export const solanaStakeWire: SolanaStakeWire = {
  uid: STAKE_UID,
  account_id: 3,
  account_name: "sol-staking",
  currency: "SOL",
  created_on: "2024-03-01T10:00:00.123456",
  status: "ACTIVE",
  total_reward: 1_523_004,
  actions: [`/solana/accounts/3/stakes/${STAKE_UID}/actions/deactivate`, `/solana/accounts/3/stakes/${STAKE_UID}/actions/split`],
  blockchain_state: {
    status: "activated",
    activation_epoch: 580,
    deactivation_epoch: null,
    activation_date: "2024-03-02T00:00:00Z",
    deactivation_date: null,
    active_balance: 5_000_000_000,
    inactive_balance: 0,
    total_balance: 5_002_282_880,
    rent_exempt_reserve: 2_282_880,
    pub_key: "7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2",
    validator_address: SOLANA_VALIDATOR,
  },
};

export function transactionWire(overrides: Partial<TransactionWire> = {}): TransactionWire {
  return {
    id: 1201,
    account_id: 3,
    account_index: 0,
    amount: "1500000000",
    max_fees: "5000",
    fees: null,
    broadcast_on: null,
    created_on: "2024-03-01T10:00:00.000000+00:00",
    created_by: 42,
    coin_fields: null,
    confirmations: 0,
    min_confirmations: 10,
    currency: "SOL",
    interaction_type: null,
    last_request: 9001,
    notes: [{ title: "payout-2024-03", content: "March payout" }],
    recipient: SOLANA_RECIPIENT,
    speed: "NORMAL",
    status: "PENDING_APPROVAL",
    tx_hash: null,
    type: "SEND",
    uid: null,
    senders: [],
    ...overrides,
  };
}

export const healthWire: Health = { status: "ok", module_version: "1.19.2", api_version: "1.30.5" };

export const userWire: UserRecord = {
  created_by: 1,
  created_on: "2024-01-15T09:30:00+00:00",
  id: 42,
  is_api: true,
  key_handle: "a1b2c3d4",
  last_request: 9001,
  pub_key: "04ab12",
  role: "OPERATOR",
  status: "ACTIVE",
  user_id: "1f2e3d4c5b6a",
  username: "treasury-bot",
};

/** The `{ edges, page_info }` envelope of the service's lists. */
export function pageWire<T>(
  nodes: readonly T[],
  hasNextPage: boolean,
  firstCursor = 0,
): { edges: { cursor: number; node: T }[]; page_info: { count: number; has_next_page: boolean } } {
  return {
    edges: nodes.map((node, index) => ({ cursor: firstCursor + index, node })),
    page_info: { count: nodes.length, has_next_page: hasNextPage },
  };
}
