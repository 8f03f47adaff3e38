import pg from "pg";
import type { DatabaseTarget } from "./database-url.js";

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** A pool or one of its connections: what a statement runs on. */
export type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

/**
 * A connection pool to the target. A connection lost while idle is dropped by the pool (its error
 * is expected and handled, not an unhandled 'error' event that would end the process); the
 * password may also come from PGPASSWORD or a pgpass file (PGPASSFILE), as with libpq.
 */
export function openPool(target: DatabaseTarget, maxConnections = 10): Pool {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: maxConnections,
    connectionTimeoutMillis: 10_000,
    application_name: "custody-mcp",
    keepAlive: true,
    // A process that stops mid-transaction (paused, cut off) must not hold the chain's lock for ever:
    // its transaction is ended, and a statement waiting longer than this fails rather than hangs.
    idle_in_transaction_session_timeout: 30_000,
    statement_timeout: 30_000,
  });
  pool.on("error", () => {});
  return pool;
}

/** A transaction's first statement for reads that must agree with each other (the chain and the rows derived from it) while replicas append. */
export const ONE_SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY";

/**
 * Runs `work` in one transaction on one connection: committed if it returns, rolled back if it
 * throws. A connection that failed is destroyed, never handed out again.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // Lost between two statements: the next statement fails with it, so the event needs no handling of its own.
  const lost = () => {};
  client.on("error", lost);
  let failure: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.off("error", lost);
    client.release(failure);
  }
}
