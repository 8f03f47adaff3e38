import type { Currency } from "@custody/shared";
import { notFound } from "../http/http-error.js";
import type { AccountRow, ModuleUserRow, TableName, Tables, TransactionRow, UserRow } from "../store/state-types.js";

/** Read access shared by the store (outside commits) and a commit in progress. */
export interface Reader {
  get<K extends TableName>(table: K, key: string | number): Tables[K] | undefined;
  values<K extends TableName>(table: K): Iterable<Tables[K]>;
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

/** A path id: digits only, else 404 (no such resource). */
export function pathId(raw: string | undefined, what: string): number {
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw)) throw notFound(`${what} ${JSON.stringify(raw ?? "")} does not exist (ids are whole numbers)`);
  return Number(raw);
}

export function requireAccount(reader: Reader, id: number): AccountRow {
  const account = reader.get("accounts", id);
  if (!account) throw notFound(`account ${id} does not exist`);
  return account;
}

export function findAccountByName(reader: Reader, name: string): AccountRow | undefined {
  for (const account of reader.values("accounts")) if (account.name === name) return account;
  return undefined;
}

export function findAccountByAddress(reader: Reader, address: string, currency: string): AccountRow | undefined {
  const wanted = address.toLowerCase();
  for (const account of reader.values("accounts")) {
    if (account.currency === currency && (account.address === address || (account.network === "Ethereum" && account.address.toLowerCase() === wanted))) {
      return account;
    }
  }
  return undefined;
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
