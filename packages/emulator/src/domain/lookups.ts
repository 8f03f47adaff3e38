import type { Currency } from "@custody/shared";
import { notFound } from "./domain-error.js";
import { positiveId } from "./positive-id.js";
import type { StateIndexes } from "../store/indexes/state-indexes.js";
import type { AccountRow, ModuleUserRow, TableName, Tables, TransactionRow, UserRow } from "../store/state-types.js";

/** Read access shared by the store (outside commits) and a commit in progress. */
export interface Reader {
  get<K extends TableName>(table: K, key: string | number): Tables[K] | undefined;
  values<K extends TableName>(table: K): Iterable<Tables[K]>;
  /** The indexes of the committed rows; rows staged by a commit in progress are in stagedKeys. */
  readonly indexes: StateIndexes;
  stagedKeys(table: TableName): Iterable<string>;
}

/**
 * The rows of the table that satisfy `wanted`, found through an index: the committed rows the
 * index names, read again as the reader sees them, plus any row the commit in progress staged.
 */
export function indexed<K extends TableName>(reader: Reader, table: K, committed: Iterable<string | number>, wanted: (row: Tables[K]) => boolean): Tables[K][] {
  const keys = new Set<string>();
  for (const key of committed) keys.add(String(key));
  for (const key of reader.stagedKeys(table)) keys.add(key);
  const rows: Tables[K][] = [];
  for (const key of keys) {
    const row = reader.get(table, key);
    if (row && wanted(row)) rows.push(row);
  }
  return rows;
}

function lowestId(accounts: AccountRow[]): AccountRow | undefined {
  return accounts.sort((a, b) => a.id - b.id)[0];
}

export function findWorkspaceUser(reader: Reader, username: string, isApi?: boolean): UserRow | undefined {
  for (const user of reader.values("users")) {
    if (user.username === username && (isApi === undefined || user.is_api === isApi)) return user;
  }
  return undefined;
}

export function findModuleUser(reader: Reader, name: string): ModuleUserRow | undefined {
  return reader.get("module_users", name);
}

/** A path id: a positive integer up to 2^53-1, else 400 naming the parameter (`account` gives `account_id`). */
export function pathId(raw: string | undefined, what: string): number {
  return positiveId(raw ?? "", `${what}_id`);
}

export function requireAccount(reader: Reader, id: number): AccountRow {
  const account = reader.get("accounts", id);
  if (!account) throw notFound(`account ${id} does not exist`);
  return account;
}

/** Every account with exactly this name, lowest id first (the control plane can give two accounts one name). */
export function findAccountsByName(reader: Reader, name: string): AccountRow[] {
  return indexed(reader, "accounts", reader.indexes.accounts.named(name), (account) => account.name === name).sort((a, b) => a.id - b.id);
}

export function findAccountByName(reader: Reader, name: string): AccountRow | undefined {
  return findAccountsByName(reader, name)[0];
}

export function findAccountByAddress(reader: Reader, address: string, currency: string): AccountRow | undefined {
  const wanted = address.toLowerCase();
  return lowestId(
    indexed(
      reader,
      "accounts",
      reader.indexes.accounts.at(currency, address),
      (account) =>
        account.currency === currency && (account.address === address || (account.network === "Ethereum" && account.address.toLowerCase() === wanted)),
    ),
  );
}

export function requireTransaction(reader: Reader, id: number): TransactionRow {
  const transaction = reader.get("transactions", id);
  if (!transaction) throw notFound(`transaction ${id} does not exist`);
  return transaction;
}

export function requireCurrency(reader: Reader, name: string): Currency {
  const currency = reader.get("currencies", name);
  if (!currency) throw notFound(`currency ${JSON.stringify(name)} does not exist`);
  return currency;
}
