import { AuditRecord } from "../audit/audit-entry.js";
import { auditHash } from "../audit/chain-check.js";
import { openPool, type Pool } from "./database-pool.js";
import { DatabaseTarget } from "./database-url.js";
import { PostgresGuardStore, type PostgresStoreOptions } from "./postgres-guard-store.js";
import { migrateSchema } from "./schema-migrations.js";
import { withRetry } from "./transient-errors.js";

/**
 * Opens the guard's store in a PostgreSQL database: connects (waiting through a database that is
 * starting, for retryForMs), creates or migrates the schema, and checks that the chain's last
 * record is intact before anything is appended after it. Errors name the database without its password.
 */
export async function openPostgresGuardStore(url: string, options: PostgresStoreOptions & { maxConnections?: number } = {}): Promise<PostgresGuardStore> {
  const target = new DatabaseTarget(url);
  const pool = openPool(target, options.maxConnections);
  try {
    await withRetry(async () => {
      await migrateSchema(pool);
      await checkTail(pool);
    }, { retryForMs: options.retryForMs ?? 30_000 });
  } catch (error) {
    await pool.end();
    throw target.redactError(error, `guard store ${target.shown}: cannot open it: `);
  }
  return new PostgresGuardStore(pool, target, options);
}

async function checkTail(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ seq: string; hash: string; line: string }>("SELECT seq, hash, line FROM custody_audit ORDER BY seq DESC LIMIT 1");
  const tail = rows[0];
  if (tail === undefined) return;
  const parsed = AuditRecord.safeParse(JSON.parse(tail.line));
  if (!parsed.success || String(parsed.data.seq) !== tail.seq || parsed.data.hash !== tail.hash) throw new Error(`the audit chain's last record (seq ${tail.seq}) is not an intact audit record; refusing to append to it`);
  const { hash, ...unsigned } = parsed.data;
  if (auditHash(unsigned) !== hash) throw new Error(`the audit chain's last record (seq ${tail.seq}) does not match its hash; refusing to append to it`);
}
