import type pg from "pg";
import { CHAIN_START, type ChainPoint } from "../audit/chain-check.js";
import type { AuditSealKey } from "../audit/seal-key.js";
import { registeredSeal, registerSeal, type RegisteredSeal } from "../audit/sealed-log-register.js";
import type { PoolClient, Queryable } from "./database-pool.js";

/**
 * The name the seal key's register (sealed-log-register.ts) knows a database's chain by on this
 * machine: where the connection went, as the driver resolved the URL (and libpq's variables):
 * user, host, port and database, never the password; and the schema that holds the chain (the
 * search_path may name one). Null when the key keeps no register (not read from a file) or there
 * is no chain.
 */
export async function chainRegisterName(client: PoolClient, key: AuditSealKey): Promise<string | null> {
  if (key.path === null) return null;
  const { rows } = await client.query<{ schema: string }>(
    "SELECT relnamespace::regnamespace::text AS schema FROM pg_class WHERE oid = to_regclass('custody_audit')",
  );
  if (rows[0] === undefined) return null;
  // A pool's connection is a Client: its settings as connected, password apart.
  const { user, host, port, database } = client as unknown as pg.Client;
  const at = host.includes(":") ? `[${host}]` : host;
  return `postgres://${encodeURIComponent(user ?? "")}@${at}:${port}/${encodeURIComponent(database ?? "")}?schema=${encodeURIComponent(rows[0].schema)}`;
}

/** What the key's register says it last sealed of the chain named `name`; null when it says nothing. */
export function registeredChainSeal(key: AuditSealKey, name: string | null): RegisteredSeal | null {
  return name === null ? null : registeredSeal(key, name);
}

/**
 * Records a committed seal of the chain named `name` in the key's register (once its transaction committed: never ahead
 * of the database). Never throws: the record is committed, and an append must not read as failed after it (a register
 * left behind says less, never something false).
 */
export function registerChainSeal(key: AuditSealKey, name: string | null, point: ChainPoint): void {
  if (name === null) return;
  try {
    registerSeal(key, name, point);
  } catch {
    // A full disk or a folder gone: the register stays at an earlier record.
  }
}

/**
 * What the key's register (`registered`, read before the chain's seal: a writer commits, then
 * writes the register) says the database lacks, or null: its chain's seal (checked, and held by
 * the chain) is below the register's record, the database put back to an earlier state with the
 * seal row it had then; or another record is at the register's number, another chain. Reads at
 * most one row, by its number.
 */
export async function registerAheadOfChain(db: Queryable, registered: RegisteredSeal | null, seal: ChainPoint): Promise<string | null> {
  if (registered === null || registered.seq <= CHAIN_START.seq) return null;
  const said =
    `the seal key's register ${registered.path} says this database's audit chain was sealed through record ` +
    `${registered.seq} (hash ${registered.hash.slice(0, 12)}…)`;
  if (seal.seq < registered.seq) {
    const at = seal.seq === CHAIN_START.seq ? "its start (no record)" : `record ${seal.seq} (hash ${seal.hash.slice(0, 12)}…)`;
    return (
      `${said}, but the database's chain is sealed at ${at}: it was rolled back (the database put back from an earlier copy: ` +
      "a restore from a backup, a point-in-time recovery, a failover to a standby that was behind) and lost the records after it"
    );
  }
  const held =
    seal.seq === registered.seq
      ? seal.hash
      : (await db.query<{ hash: string }>("SELECT hash FROM custody_audit WHERE seq = $1", [registered.seq])).rows[0]?.hash;
  if (held === registered.hash) return null;
  const found = held === undefined ? "has no such record" : `holds another record there (hash ${held.slice(0, 12)}…)`;
  return `${said}, but the database ${found}: its chain differs from the one sealed (the database replaced, or put back and written since)`;
}
