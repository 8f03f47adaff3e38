import postgres, { type Sql } from "postgres";
import { AuditRecord } from "../audit/audit-entry.js";
import { auditHash } from "../audit/audit-log.js";
import { DatabaseTarget } from "./database-url.js";
import { PostgresGuardStore, type PostgresStoreOptions } from "./postgres-guard-store.js";
import { migrateSchema } from "./schema-migrations.js";
import { withRetry } from "./transient-errors.js";

export interface DatabaseOptions {
  /** The password, when not in the URL (read from a password file). */
  password?: string | null;
  /** Connections held at most. */
  maxConnections?: number;
}

/** A connection pool to the target; its errors are never printed by the driver. */
export function connectDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Sql {
  return postgres(target.url, {
    max: options.maxConnections ?? 10,
    ...(target.password === null ? {} : { password: target.password }),
    onnotice: () => {},
    connect_timeout: 10,
    connection: { application_name: "custody-mcp" },
  });
}

/**
 * Opens the guard's store in a PostgreSQL database: connects (waiting through a database that is
 * starting, for retryForMs), creates or migrates the schema, and checks that the chain's last
 * record is intact before anything is appended after it. Errors name the database without its password.
 */
export async function openPostgresGuardStore(url: string, options: PostgresStoreOptions & DatabaseOptions = {}): Promise<PostgresGuardStore> {
  const target = new DatabaseTarget(url, options.password ?? null);
  const sql = connectDatabase(target, options);
  try {
    await withRetry(async () => {
      await migrateSchema(sql);
      await checkTail(sql);
    }, { retryForMs: options.retryForMs ?? 30_000 });
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw target.redactError(error, `guard store ${target.shown}: cannot open it: `);
  }
  return new PostgresGuardStore(sql, target, options);
}

async function checkTail(sql: Sql): Promise<void> {
  const [tail] = await sql<{ seq: string; hash: string; line: string }[]>`SELECT seq, hash, line FROM custody_audit ORDER BY seq DESC LIMIT 1`;
  if (tail === undefined) return;
  const parsed = AuditRecord.safeParse(JSON.parse(tail.line));
  if (!parsed.success || String(parsed.data.seq) !== tail.seq || parsed.data.hash !== tail.hash) throw new Error(`the audit chain's last record (seq ${tail.seq}) is not an intact audit record; refusing to append to it`);
  const { hash, ...unsigned } = parsed.data;
  if (auditHash(unsigned) !== hash) throw new Error(`the audit chain's last record (seq ${tail.seq}) does not match its hash; refusing to append to it`);
}
