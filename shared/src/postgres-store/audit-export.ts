import { once } from "node:events";
import type { Writable } from "node:stream";
import Cursor from "pg-cursor";
import { AuditChainVerifier } from "../audit/chain-verifier.js";
import type { AuditVerdict } from "../audit/verify-audit-log.js";
import { openPool } from "./database-pool.js";
import { DatabaseTarget } from "./database-url.js";

/** Rows fetched per round trip: memory stays bounded whatever the chain's length. */
const CURSOR_ROWS = 1000;

/**
 * Reads the chain's records in order, as JSONL lines, through a cursor: a read-only look that
 * creates nothing; records appended meanwhile are left for the next read. `each` returning false stops it.
 */
async function readChain(url: string, each: (line: string) => Promise<boolean> | boolean): Promise<void> {
  const target = new DatabaseTarget(url);
  const pool = openPool(target, 1);
  try {
    const client = await pool.connect();
    try {
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
    } finally {
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
