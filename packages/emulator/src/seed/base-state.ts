import { emptyTables, META_KEY, type TableMaps, type UserRow } from "../store/state-types.js";
import { SEED_CURRENCIES, SEED_TOKENS } from "./seed-currencies.js";

/** The workspace's human administrators; the Admin rule needs two of them. */
export const ADMINISTRATORS = ["alice.admin", "bob.admin", "carol.admin"];
/** Human approvers who appear in transaction rules. */
export const HUMAN_APPROVERS = ["dana.approver", "erin.approver"];

function human(id: number, username: string, role: string, now: number): UserRow {
  const hex = id.toString(16).padStart(2, "0");
  return {
    id,
    username,
    is_api: false,
    role,
    status: "ACTIVE",
    user_id: `${hex}`.repeat(16),
    pub_key: `04${hex.repeat(64)}`,
    key_handle: hex.repeat(16),
    created_by: 1,
    created_on_ms: now,
    last_request: 0,
  };
}

/** A workspace with its currencies, tokens and human users, and nothing else. */
export function baseState(now: number, workspace: string): TableMaps {
  const tables = emptyTables();
  const users = [...ADMINISTRATORS.map((name) => [name, "ADMIN"] as const), ...HUMAN_APPROVERS.map((name) => [name, "OPERATOR"] as const)];
  users.forEach(([name, role], index) => tables.users.set(String(index + 1), human(index + 1, name, role, now)));
  tables.meta.set(META_KEY, {
    workspace,
    genesis_ms: now,
    clock_offset_ms: 0,
    processed_epoch: 0,
    counters: { user: users.length, account: 0, transaction: 0, request: 0, history_entry: 0 },
    admin_rule: { quorum: 2, approvers: [...ADMINISTRATORS] },
  });
  for (const currency of SEED_CURRENCIES) tables.currencies.set(currency.name, currency);
  for (const token of SEED_TOKENS) tables.tokens.set(token.name, token);
  return tables;
}
