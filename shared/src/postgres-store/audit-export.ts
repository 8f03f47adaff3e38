import { once } from "node:events";
import type { Writable } from "node:stream";
import Cursor from "pg-cursor";
import { randomUUID } from "node:crypto";
import { AuditChainVerifier } from "../audit/chain-verifier.js";
import type { AuditRecord } from "../audit/audit-entry.js";
import { AuditSealError } from "../audit/seal-file.js";
import { sealedRecordInput } from "../audit/seal-record-input.js";
import type { AuditSealKey } from "../audit/seal-key.js";
import type { SealVerdict } from "../audit/seal-verdict.js";
import type { AuditVerdict } from "../audit/verify-audit-log.js";
import { appendLocked, lockChain } from "./chain-append.js";
import { inTransaction, ONE_SNAPSHOT, openPool, type PoolClient, type Queryable } from "./database-pool.js";
import { DatabaseTarget } from "./database-url.js";
import { migrateSchema } from "./schema-migrations.js";
import { chainAgainstSeal, tableSeal, unverifiedTableSeal } from "./table-seal.js";
import { derivedRowsDiffer, rebuildDerivedRows } from "./derived-rows.js";
import { chainRegisterName, registerAheadOfChain, registerChainSeal, registeredChainSeal } from "./chain-register.js";
import type { RegisteredSeal } from "../audit/sealed-log-register.js";
import { DAILY_LIMIT_WINDOW_MS } from "../policy/daily-limit.js";

/** Rows fetched per round trip: memory stays bounded whatever the chain's length. */
const CURSOR_ROWS = 1000;

/** What a read of the chain does besides reading its records: `before` its snapshot is taken, `after` in it, once they are read. */
interface ChainReadChecks {
  before?: (client: PoolClient) => Promise<void>;
  after: (db: Queryable) => Promise<void>;
}

/**
 * Reads the chain's records in order, as JSONL lines, through a cursor: a read-only look that
 * creates nothing; records appended meanwhile are left for the next read. `each` returning false stops it.
 */
async function readChain(url: string, each: (line: string) => Promise<boolean> | boolean, checks?: ChainReadChecks): Promise<void> {
  const target = new DatabaseTarget(url);
  const pool = openPool(target, 1);
  try {
    const client = await pool.connect();
    try {
      await checks?.before?.(client);
      // The chain, its seal and the derived rows read as of one moment, whatever replicas append meanwhile.
      await client.query("BEGIN");
      await client.query(ONE_SNAPSHOT);
      const { rows } = await client.query<{ table: string | null }>("SELECT to_regclass('custody_audit')::text AS table");
      if (!rows[0]?.table) throw new Error("no audit chain in this database (the custody_audit table is missing)");
      const cursor = client.query(new Cursor<{ line: string }>("SELECT line FROM custody_audit ORDER BY seq"));
      try {
        for (let batch = await cursor.read(CURSOR_ROWS); batch.length > 0; batch = await cursor.read(CURSOR_ROWS)) {
          for (const row of batch) if (!(await each(row.line))) return;
        }
      } finally {
        await cursor.close();
      }
      await checks?.after(client);
    } finally {
      await client.query("ROLLBACK").catch(() => {});
      client.release();
    }
  } catch (error) {
    throw target.redactError(error, `guard store ${target.shown}: `);
  } finally {
    await pool.end();
  }
}

/** Verifies a database's audit chain as verify-audit does a file's, streaming. */
export async function verifyPostgresAudit(url: string): Promise<AuditVerdict> {
  const verifier = new AuditChainVerifier();
  await readChain(url, (line) => verifier.push(line));
  return verifier.verdict();
}

/**
 * The same, then the chain compared with its sealed high-water mark (checked with the key when
 * there is one; else compared unchecked), and with the key's register, as the store's open does.
 */
export async function verifySealedPostgresAudit(url: string, key: AuditSealKey | null): Promise<{ verdict: AuditVerdict; seal: SealVerdict }> {
  const verifier = new AuditChainVerifier();
  let seal: SealVerdict = { kind: "unsealed" };
  let registered: RegisteredSeal | null = null;
  await readChain(url, (line) => verifier.push(line), {
    // Before the snapshot: a register read after it could name a record a replica committed since.
    before: async (client) => {
      registered = key === null ? null : registeredChainSeal(key, await chainRegisterName(client, key));
    },
    after: async (db) => {
      seal = await sealVerdictOf(db, key, registered);
    },
  });
  return { verdict: verifier.verdict(), seal };
}

async function sealVerdictOf(db: Queryable, key: AuditSealKey | null, registered: RegisteredSeal | null): Promise<SealVerdict> {
  if ((await db.query<{ table: string | null }>("SELECT to_regclass('custody_audit_seal')::text AS table")).rows[0]?.table == null) return { kind: "unsealed" };
  const seal = await unverifiedTableSeal(db);
  if (seal === null) {
    // After the migration that brings seals, every chain has its row, an empty one too: the store refuses one without.
    const { rows } = await db.query<{ any: boolean }>("SELECT EXISTS (SELECT 1 FROM custody_audit) AS any");
    const what = rows[0]?.any === true ? "has records" : "is empty (its records deleted, or never written since an older version created it)";
    return { kind: "missing", reason: `the chain ${what} but has no seal row (custody_audit_seal)` };
  }
  // Checked with the key when there is one (another key's seal is not trusted, as the store refuses it); with none, compared unchecked (as a file's seal is).
  const checkable = key !== null;
  try {
    if (checkable) await tableSeal(db, key);
  } catch (error) {
    if (error instanceof AuditSealError) return { kind: "unauthentic", reason: error.message };
    throw error;
  }
  const point = { seq: seal.seq, hash: seal.hash };
  const standing = await chainAgainstSeal(db, point);
  if (standing !== "holds") return { kind: standing, seal: point };
  // A seal below the register's, or another chain at its record, is not trusted, as for a file (the store refuses it).
  const behind = await registerAheadOfChain(db, registered, point);
  if (behind !== null) return { kind: "unauthentic", reason: behind };
  // The day's derived rows against the chain's fold, as the store's open checks them.
  const derived = await derivedRowsDiffer(db, new Date(Date.now() - DAILY_LIMIT_WINDOW_MS));
  return derived === null ? { kind: "holds", seal: point, authenticated: checkable, keyId: seal.key_id } : { kind: "unauthentic", reason: derived };
}

/**
 * A person's reseal of a database's chain (see resealAuditLog): its chain verified whole first
 * (a broken one is refused), then a `sealed` record naming what the old seal said, which seals it
 * and, once committed, is what the key's register says.
 */
export async function resealPostgresAudit(url: string, key: AuditSealKey): Promise<AuditRecord> {
  const verdict = await verifyPostgresAudit(url);
  const target = new DatabaseTarget(url);
  if (!verdict.ok)
    throw new Error(`guard store ${target.shown}: the audit chain is not a valid chain (${verdict.reason}); a reseal seals only an intact chain`);
  const pool = openPool(target, 1);
  try {
    await migrateSchema(pool);
    const { sealed, register } = await inTransaction(pool, async (client) => {
      const register = await chainRegisterName(client, key);
      await lockChain(client);
      const previous = await unverifiedTableSeal(client);
      const { rows } = await client.query<{ seq: string }>("SELECT seq FROM custody_audit ORDER BY seq DESC LIMIT 1");
      const holds = rows[0] === undefined ? null : { seq: Number(rows[0].seq) };
      const input = sealedRecordInput("resealed", key.id, holds, previous === null ? null : { seq: previous.seq, key_id: previous.key_id });
      const sealed = await appendLocked(client, input, randomUUID(), new Date(), { key, mode: "reseal" });
      await rebuildDerivedRows(client, new Date(Date.now() - DAILY_LIMIT_WINDOW_MS));
      return { sealed, register };
    });
    // Committed: the register now says the new seal, so the chain as the person accepted it opens.
    registerChainSeal(key, register, sealed);
    return sealed;
  } catch (error) {
    throw target.redactError(error, `guard store ${target.shown}: `);
  } finally {
    await pool.end();
  }
}

/** Writes a database's audit chain as JSONL, line for line what the file log holds; returns the count. */
export async function exportPostgresAudit(url: string, out: Writable): Promise<number> {
  let count = 0;
  await readChain(url, async (line) => {
    count += 1;
    if (!out.write(`${line}\n`)) await once(out, "drain");
    return true;
  });
  return count;
}
