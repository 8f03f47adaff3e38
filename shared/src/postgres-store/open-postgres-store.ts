import { AuditRecord } from "../audit/audit-entry.js";
import { auditHash, CHAIN_START } from "../audit/chain-check.js";
import { randomUUID } from "node:crypto";
import { sealedRecordInput } from "../audit/seal-record-input.js";
import { defaultSealKeyPath, sealKeyFromFile, type AuditSealKey } from "../audit/seal-key.js";
import { appendLocked, lockChain } from "./chain-append.js";
import { inTransaction, ONE_SNAPSHOT, openPool, type Pool, type PoolClient, type Queryable } from "./database-pool.js";
import { DatabaseTarget } from "./database-url.js";
import { PostgresGuardStore, type PostgresStoreOptions } from "./postgres-guard-store.js";
import { migrateSchema, SEAL_VERSION, TRACE_CONCLUSION_VERSION, TRACE_PERSON_VERSION } from "./schema-migrations.js";
import { requireSealedChain, writeTableSeal } from "./table-seal.js";
import { chainRegisterName } from "./chain-register.js";
import { derivedRowsDiffer, fillTraceConclusions, fillTracePersons } from "./derived-rows.js";
import { AuditSealError } from "../audit/seal-file.js";
import { DAILY_LIMIT_WINDOW_MS } from "../policy/daily-limit.js";
import { withRetry } from "./transient-errors.js";

/**
 * Opens the guard's store in a PostgreSQL database: connects (waiting through a database that is
 * starting, for retryForMs), creates or migrates the schema, and checks that the chain's last
 * record is intact and that the chain holds its sealed high-water mark before anything is
 * appended after it (a chain from before seals is sealed by the migration that brings them). A chain
 * shortened below its seal, or whose seal was edited or made with another key, or sealed below what
 * the key's register says (the database put back from an earlier copy), is refused until a person
 * reseals it. Errors name the database without its password.
 */
export async function openPostgresGuardStore(url: string, options: PostgresStoreOptions & { maxConnections?: number } = {}): Promise<PostgresGuardStore> {
  const target = new DatabaseTarget(url);
  const pool = openPool(target, options.maxConnections);
  const sealKey = options.sealKey ?? sealKeyFromFile(defaultSealKeyPath());
  try {
    await withRetry(
      async () => {
        await migrateSchema(pool, async (client, version) => {
          const now = options.now?.() ?? new Date();
          const day = new Date(now.getTime() - DAILY_LIMIT_WINDOW_MS);
          if (version === SEAL_VERSION) await sealChainFirst(client, sealKey, now);
          if (version === TRACE_PERSON_VERSION) await fillTracePersons(client, day);
          if (version === TRACE_CONCLUSION_VERSION) await fillTraceConclusions(client, day);
        });
        await checkTail(pool);
        await checkSeal(pool, sealKey);
        await checkDerivedRows(pool, options.now?.() ?? new Date());
      },
      { retryForMs: options.retryForMs ?? 30_000 },
    );
  } catch (error) {
    await pool.end();
    throw target.redactError(error, `guard store ${target.shown}: cannot open it: `);
  }
  return new PostgresGuardStore(pool, target, { ...options, sealKey });
}

/**
 * Under the chain's lock: the chain holds its seal, no earlier than the key's register says. A
 * chain is sealed once, by the migration that brings seals (sealChainFirst): after it, a chain with
 * records and no seal row lost its seal.
 */
async function checkSeal(pool: Pool, key: AuditSealKey): Promise<void> {
  await inTransaction(pool, async (client) => {
    const register = await chainRegisterName(client, key);
    await lockChain(client);
    await requireSealedChain(client, key, false, register);
  });
}

/**
 * In the migration's transaction: a chain from before seals, if it has records, is sealed as it is, with a `sealed` record;
 * an empty one (a new database) is sealed empty, so that an empty chain without a seal is one whose records were deleted.
 */
async function sealChainFirst(client: PoolClient, key: AuditSealKey, now: Date): Promise<void> {
  await lockChain(client);
  await checkTail(client);
  const { rows } = await client.query<{ seq: string }>("SELECT seq FROM custody_audit ORDER BY seq DESC LIMIT 1");
  if (rows[0] === undefined) return writeTableSeal(client, key, CHAIN_START);
  await appendLocked(client, sealedRecordInput("first_seal", key.id, { seq: Number(rows[0].seq) }), randomUUID(), now, { key, mode: "first_seal" });
}

/** The day's derived rows (committed amounts, write traces) are what the sealed chain says: rows deleted to reset a daily limit stop the store. */
async function checkDerivedRows(pool: Pool, now: Date): Promise<void> {
  const differs = await inTransaction(pool, async (client) => {
    // One snapshot for the chain's read and the rows': another replica's append between them is no difference.
    await client.query(ONE_SNAPSHOT);
    return derivedRowsDiffer(client, new Date(now.getTime() - DAILY_LIMIT_WINDOW_MS));
  });
  if (differs !== null) throw new AuditSealError(differs);
}

async function checkTail(pool: Queryable): Promise<void> {
  const { rows } = await pool.query<{ seq: string; hash: string; line: string }>("SELECT seq, hash, line FROM custody_audit ORDER BY seq DESC LIMIT 1");
  const tail = rows[0];
  if (tail === undefined) return;
  const parsed = AuditRecord.safeParse(JSON.parse(tail.line));
  if (!parsed.success || String(parsed.data.seq) !== tail.seq || parsed.data.hash !== tail.hash)
    throw new Error(`the audit chain's last record (seq ${tail.seq}) is not an intact audit record; refusing to append to it`);
  const { hash, ...unsigned } = parsed.data;
  if (auditHash(unsigned) !== hash) throw new Error(`the audit chain's last record (seq ${tail.seq}) does not match its hash; refusing to append to it`);
}
