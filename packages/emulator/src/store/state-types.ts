import type { AccountGovernance, Currency, Note, PolkadotStakingType, RuleStep, SolanaStakeState, Token, TransactionStatus, UserStatus } from "@custody/shared";

/** Times in rows are simulated-clock milliseconds since the Unix epoch. */
export type SimMs = number;

export type CounterName = "user" | "account" | "transaction" | "request" | "history_entry";

export interface AdminRule {
  quorum: number;
  /** Usernames of the human administrators whose approvals count. */
  approvers: string[];
}

export interface MetaRow {
  workspace: string;
  /** Simulated time at which epoch 0 (Solana) started. */
  genesis_ms: SimMs;
  /** Added to the real clock to give simulated time; only ever grows. */
  clock_offset_ms: number;
  /** The last Solana epoch whose start has been processed. */
  processed_epoch: number;
  counters: Record<CounterName, number>;
  admin_rule: AdminRule;
}

/** An operator as the module knows it (its secret lives in the module storage). */
export interface ModuleUserRow {
  name: string;
  device_id: string;
  pub_key: string;
  key_handle: string;
  created_on_ms: SimMs;
}

export interface UserRow {
  id: number;
  username: string;
  is_api: boolean;
  role: string;
  status: UserStatus;
  user_id: string;
  pub_key: string;
  key_handle: string;
  created_by: number;
  created_on_ms: SimMs;
  last_request: number;
}

export interface InvitationRow {
  uuid: string;
  username: string;
  device_id: string;
  invited_by: string;
  created_on_ms: SimMs;
  used_on_ms: SimMs | null;
}

export interface ApprovalRow {
  username: string;
  is_api: boolean;
  approved_on_ms: SimMs;
}

export interface HistoryEntryRow {
  id: number;
  created_by: number;
  created_on_ms: SimMs;
  status: TransactionStatus;
  is_complete: boolean;
}

export type RuleKind = "transaction" | "staking" | "smart_contract";

export interface RequestRow {
  id: number;
  type: "CREATE_TRANSACTION" | "CREATE_USER";
  created_by: number;
  created_on_ms: SimMs;
  expired_at_ms: SimMs;
  /** The rule the request is governed by; "admin" for operator registration. */
  rule: RuleKind | "admin";
  /** The rule's steps as they were when the request was created. */
  steps: RuleStep[];
  approvals: ApprovalRow[];
  status: TransactionStatus;
  transaction_id: number | null;
  user_id: number | null;
  rejected_by: string | null;
  entries: HistoryEntryRow[];
}

export type NetworkName = "Solana" | "Polkadot" | "Ethereum";

export interface UnbondingChunk {
  amount: bigint;
  unlock_at_ms: SimMs;
}

export interface PolkadotLedger {
  bonded: bigint;
  reserved: bigint;
  unbonding: UnbondingChunk[];
  rewards_destination: string;
  controller_address: string;
  proxies: string[];
}

export interface AccountRow {
  id: number;
  name: string;
  network: NetworkName;
  currency: string;
  index: number;
  address: string;
  created_on_ms: SimMs;
  /** Funds the account holds itself (Polkadot: the free balance, which includes locked funds). */
  free: bigint;
  /** amount + max_fees of its outgoing transactions not yet broadcast or ended. */
  in_flight: bigint;
  polkadot: PolkadotLedger | null;
  governance: AccountGovernance;
}

export type SolanaStakeActionName = "deactivate" | "withdraw" | "delegate" | "split" | "split_deactivate";

export type TransactionEffect =
  | { kind: "send" }
  | { kind: "polkadot"; op: PolkadotStakingType; payee: string | null }
  | { kind: "solana_create_stake"; stake_uid: string; stake_pub_key: string; validator: string }
  | {
      kind: "solana_stake_action";
      action: SolanaStakeActionName;
      stake_uid: string;
      validator: string | null;
      new_stake_uid: string | null;
      new_stake_pub_key: string | null;
    }
  | { kind: "contract"; staking_provider: string | null }
  | { kind: "deploy" };

export interface TransactionRow {
  id: number;
  account_id: number;
  request_id: number;
  type: string;
  status: TransactionStatus;
  amount: bigint;
  max_fees: bigint;
  /** What the network will charge at broadcast (never above max_fees). */
  fee_due: bigint;
  fees: bigint | null;
  /** What this transaction holds of the account's in_flight. */
  reserved: bigint;
  recipient: string;
  speed: string;
  notes: Note[];
  coin_fields: Record<string, unknown> | null;
  created_by: number;
  created_on_ms: SimMs;
  approved_on_ms: SimMs | null;
  signed_on_ms: SimMs | null;
  broadcast_on_ms: SimMs | null;
  /** Derived from the signed bytes at signing; shown once broadcast. */
  tx_hash: string | null;
  failure_reason: string | null;
  effect: TransactionEffect;
}

export interface SolanaStakeRow {
  uid: string;
  account_id: number;
  created_on_ms: SimMs;
  state: SolanaStakeState;
  activation_epoch: number | null;
  /** null until deactivated: shown as Solana's u64::MAX (SOLANA_EPOCH_NONE); state written before that change holds null too. */
  deactivation_epoch: number | null;
  activation_date_ms: SimMs | null;
  /** null until deactivated (shown as null: a date has no "none" value like the epoch's u64::MAX). */
  deactivation_date_ms: SimMs | null;
  total_balance: bigint;
  rent_exempt_reserve: bigint;
  total_reward: bigint;
  pub_key: string;
  validator_address: string;
  /** Set when the stake was withdrawn: it is no longer an open position. */
  closed_on_ms: SimMs | null;
  /** A transaction acting on this stake that has not ended yet: no other action meanwhile. */
  pending_transaction_id: number | null;
}

export interface EthereumStakeRow {
  id: string;
  account_id: number;
  provider: string;
  contract_address: string;
  amount: bigint;
  transaction_id: number;
  created_on_ms: SimMs;
  activation_ms: SimMs;
}

export interface WebhookSubscriptionRow {
  id: string;
  url: string;
  secret: string;
  /** Event kinds delivered; null for all. */
  events: string[] | null;
  created_on_ms: SimMs;
}

/** Every table of the state and the type of its rows. */
export interface Tables {
  meta: MetaRow;
  module_users: ModuleUserRow;
  users: UserRow;
  invitations: InvitationRow;
  requests: RequestRow;
  accounts: AccountRow;
  transactions: TransactionRow;
  solana_stakes: SolanaStakeRow;
  ethereum_stakes: EthereumStakeRow;
  currencies: Currency;
  tokens: Token;
  webhook_subscriptions: WebhookSubscriptionRow;
}

export type TableName = keyof Tables;

export const TABLE_NAMES: readonly TableName[] = [
  "meta",
  "module_users",
  "users",
  "invitations",
  "requests",
  "accounts",
  "transactions",
  "solana_stakes",
  "ethereum_stakes",
  "currencies",
  "tokens",
  "webhook_subscriptions",
];

export type TableMaps = { [K in TableName]: Map<string, Tables[K]> };

export function emptyTables(): TableMaps {
  const tables = {} as Record<TableName, Map<string, unknown>>;
  for (const name of TABLE_NAMES) tables[name] = new Map();
  return tables as TableMaps;
}

export const META_KEY = "meta";
