// Wire shapes taken from the spec's tables and notes, one per example the spec gives.

export const apiUserUpper = { DEVICE_ID: "3f1c9a7e0b2d4c5e", name: "alice_ops", role: "OPERATOR", type_: "SOFT_PSD", workspace: "acme" };
export const apiUserLower = { device_id: "3f1c9a7e0b2d4c5e", name: "alice_ops", role: "OPERATOR", type_: "SOFT_PSD", workspace: "acme" };

export const userRecord = {
  created_by: 1,
  created_on: "2023-02-14T09:30:00.123456+00:00",
  id: 12,
  is_api: true,
  key_handle: "a1b2c3d4",
  last_request: 41,
  pub_key: "04ab12cd",
  role: "OPERATOR",
  status: "ACTIVE",
  user_id: "3f1c9a7e0b2d4c5e",
  username: "alice_ops",
};
export const userPage = { edges: [{ cursor: 0, node: userRecord }], page_info: { count: 1, has_next_page: false } };

export const solanaSendRequest = {
  account_name: "Treasury SOL",
  amount: { value: "1500000000", unit: "lamport" },
  max_fees: { value: "5000", unit: "lamport" },
  recipient: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  speed: "NORMAL",
  coin_fields: { type: "SEND" },
  note: { title: "payout", content: "weekly payout" },
};

export const polkadotStakingRequest = (type: "BONDEXTRA" | "UNBOND" | "REBOND") => ({
  account_name: "Staking DOT",
  amount: { value: "10000000000", unit: "planck" },
  max_fees: { value: "0", unit: "planck" },
  recipient: "",
  speed: "CUSTOM",
  coin_fields: { type },
});
export const polkadotWithdrawRequest = {
  account_name: "Staking DOT",
  amount: { value: null, unit: "planck" },
  max_fees: { value: "0", unit: "planck" },
  recipient: "",
  speed: "CUSTOM",
  coin_fields: { type: "WITHDRAWUNBONDED" },
};
export const polkadotSetPayeeRequest = {
  account_name: "Staking DOT",
  amount: { value: null, unit: "planck" },
  max_fees: { value: "0", unit: "planck" },
  recipient: "",
  speed: "CUSTOM",
  coin_fields: { type: "SETPAYEE", payee: "Stash" },
};
export const ethereumStakeRequest = {
  account_name: "ETH staking",
  amount: "32000000000000000000",
  max_fees: "2100000000000000",
  recipient: "0x00000000219ab540356cBB839Cbe05303d7705Fa",
  speed: "FAST",
  coin_fields: { contract_interaction: { contract_data: "0x22895118" + "00".repeat(32) } },
};

export const solanaDeactivateTransaction = {
  id: 4107,
  account_id: 3,
  account_index: 0,
  amount: "0",
  max_fees: "5000",
  fees: "5000",
  broadcast_on: "2023-03-01T10:00:05.000000+00:00",
  created_on: "2023-03-01T10:00:00.000000+00:00",
  created_by: 12,
  coin_fields: { type: "Solana", tx_parameters: { stake_account: "7gZ1yZ6ZxR8vJ4k8YQ3qJ1b2m8H5n6p7q8r9s1t2u3v4" } },
  confirmations: 0,
  min_confirmations: 10,
  currency: "solana_testnet",
  interaction_type: null,
  last_request: 88,
  notes: [{ title: "deactivate", content: "end of quarter" }],
  recipient: "",
  speed: "NORMAL",
  status: "SUBMITTED",
  tx_hash: "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
  type: "STAKE_DEACTIVATE",
  uid: null,
  senders: ["9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"],
};

export const pendingTransaction = {
  ...solanaDeactivateTransaction,
  id: 4108,
  status: "PENDING_APPROVAL",
  fees: null,
  broadcast_on: null,
  tx_hash: null,
  coin_fields: null,
  type: "SEND",
};

export const history = {
  history: [
    [
      {
        id: 88,
        created_by: 12,
        created_on: "2023-03-01T10:00:00+00:00",
        expired_at: "2023-03-08T10:00:00+00:00",
        is_complete: false,
        status: "PENDING_APPROVAL",
        type: "CREATE_TRANSACTION",
      },
      {
        id: 88,
        created_by: 12,
        created_on: "2023-03-01T10:00:01+00:00",
        expired_at: "2023-03-08T10:00:00+00:00",
        is_complete: true,
        status: "APPROVED",
        type: "CREATE_TRANSACTION",
      },
      {
        id: 88,
        created_by: 12,
        created_on: "2023-03-01T10:00:02+00:00",
        expired_at: "2023-03-08T10:00:00+00:00",
        is_complete: true,
        status: "SIGNED",
        type: "CREATE_TRANSACTION",
      },
      {
        id: 88,
        created_by: 12,
        created_on: "2023-03-01T10:00:05+00:00",
        expired_at: "2023-03-08T10:00:00+00:00",
        is_complete: true,
        status: "SUBMITTED",
        type: "CREATE_TRANSACTION",
      },
    ],
  ],
};

const legacyBalances = {
  available: 5_000_000_000_000,
  bonded: 20_000_000_000_000,
  fee_frozen: 20_000_000_000_000,
  free: 25_000_000_000_000,
  misc_frozen: 20_000_000_000_000,
  reserved: 0,
  total: 25_000_000_000_000,
};

export const polkadotAccountLegacy = {
  id: 7,
  name: "Staking DOT",
  address: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5",
  balance: "25000000000000",
  available_balance: "5000000000000",
  currency: "polkadot",
  type: "Polkadot",
  coin_fields: {
    type: "Polkadot",
    balances: {
      ...legacyBalances,
      total_unbonded: 10_000_000_000,
      total_unbonding: 20_000_000_000,
      unbonded: [{ amount: 10_000_000_000, waiting_time: 0 }],
      unbonding: [{ amount: 20_000_000_000, waiting_time: 1_209_600 }],
    },
    staking: { controller_address: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", proxies: [], rewards_destination: "Staked" },
    anonymous_proxy: {
      address: "16ZL8yLyXv3V3L3z9ofR1ovFLziyXaN1DPq4yffMAZ9czzBD",
      balances: legacyBalances,
      block_height: 14_000_000,
      created_at: "2023-01-05T12:00:00+00:00",
      ext_index: 2,
      index: 0,
      is_controller: true,
      is_main: false,
      kind: "Any",
    },
  },
};

export const polkadotAccountFrozen = {
  ...polkadotAccountLegacy,
  coin_fields: {
    type: "Polkadot",
    balances: {
      available: 5_000_000_000_000,
      bonded: 20_000_000_000_000,
      frozen: 20_000_000_000_000,
      free: 25_000_000_000_000,
      reserved: 0,
      total: 25_000_000_000_000,
      total_unbonded: 0,
      total_unbonding: 0,
      unbonded: [],
      unbonding: [],
    },
    staking: {
      controller_address: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5",
      proxies: ["14ShUZUYUR35RBZW6uVVt1zXDxmSQddkeDdXf1JkMA6P721N"],
      rewards_destination: "Stash",
    },
  },
};

export const solanaAccount = {
  id: 3,
  name: "Treasury SOL",
  address: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  balance: "125000000000",
  available_balance: "120000000000",
  currency: "solana_testnet",
  type: "Solana",
  coin_fields: { type: "Solana" },
};

export const solanaCurrency = {
  name: "solana_testnet",
  units: [
    { code: "lamport", magnitude: 0 },
    { code: "SOL", magnitude: 9 },
  ],
};
export const polkadotCurrency = {
  name: "polkadot",
  units: [
    { code: "planck", magnitude: 0 },
    { code: "DOT", magnitude: 10 },
  ],
};

export const solanaStake = {
  uid: "0b6f5a52-3e8c-4c5c-9a4f-2f1d2b7c9e01",
  account_id: 3,
  account_name: "Treasury SOL",
  currency: "solana_testnet",
  created_on: "2023-01-20T08:15:30.123456",
  status: "ACTIVE",
  total_reward: 1_234_567,
  actions: ["/solana/accounts/3/stakes/0b6f5a52-3e8c-4c5c-9a4f-2f1d2b7c9e01/actions/deactivate"],
  blockchain_state: {
    status: "activated",
    activation_epoch: 420,
    deactivation_epoch: null,
    activation_date: "2023-01-21T00:00:00",
    deactivation_date: null,
    active_balance: 10_000_000_000,
    inactive_balance: 0,
    total_balance: 10_002_282_880,
    rent_exempt_reserve: 2_282_880,
    pub_key: "7gZ1yZ6ZxR8vJ4k8YQ3qJ1b2m8H5n6p7q8r9s1t2u3v4",
    validator_address: "CertusDeBmqN8ZawdkxK5kFGMwBXdudvWHYwtNgNhvLu",
  },
};

export const errorBody = { message: "Unknown API user 'mallory'", name: "UnknownApiUser", status_code: 400 };
