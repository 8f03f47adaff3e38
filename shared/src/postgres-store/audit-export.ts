import { once } from "node:events";
import type { Writable } from "node:stream";
import { AuditChainVerifier } from "../audit/chain-verifier.js";
import type { AuditVerdict } from "../audit/audit-log.js";
import { DatabaseTarget } from "./database-url.js";
import { connectDatabase, type DatabaseOptions } from "./open-postgres-store.js";

/** Rows fetched per round trip: memory stays bounded whatever the chain's length. */
const CURSOR_ROWS = 1000;

/**
 * Reads the chain's records in order, as JSONL lines, through a cursor. A read-only look at the
 * database: it creates nothing, and records appended meanwhile are left for the next read.
 */
async function readChain(url: string, options: DatabaseOptions, each: (line: string) => Promise<boolean> | boolean): Promise<void> {
  const target = new DatabaseTarget(url, options.password ?? null);
  const sql = connectDatabase(target, { maxConnections: 1 });
  try {
    const [exists] = await sql<{ table: string | null }[]>`SELECT to_regclass('custody_audit')::text AS table`;
    if (exists?.table === null || exists?.table === undefined) throw new Error("no audit chain in this database (the custody_audit table is missing)");
    for await (const rows of sql<{ line: string }[]>`SELECT line FROM custody_audit ORDER BY seq`.cursor(CURSOR_ROWS)) {
      for (const row of rows) if (!(await each(row.line))) return;
    }
  } catch (error) {
    throw target.redactError(error, `guard store ${target.shown}: `);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Verifies a database's audit chain as verify-audit does a file's, streaming. */
export async function verifyPostgresAudit(url: string, options: DatabaseOptions = {}): Promise<AuditVerdict> {
  const verifier = new AuditChainVerifier();
  await readChain(url, options, (line) => verifier.push(line));
  return verifier.verdict();
}

/** Writes a database's audit chain as JSONL, line for line what the file log holds; returns the count. */
export async function exportPostgresAudit(url: string, out: Writable, options: DatabaseOptions = {}): Promise<number> {
  let count = 0;
  await readChain(url, options, async (line) => {
    count += 1;
    if (!out.write(`${line}\n`)) await once(out, "drain");
    return true;
  });
  return count;
}
