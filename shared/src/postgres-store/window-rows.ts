import { SAVED_WINDOW_MAX_BYTES, type WindowPlace, type WindowShelf } from "../guard-store/saved-windows.js";
import type { Queryable } from "./database-pool.js";

/**
 * PostgreSQL's saved windows: a row per (workspace, account) in custody_known_windows (migration 9),
 * each replaced whole by one statement, so of two processes saving together the last one wins and
 * no one reads half of either. One row read by its key: the cost does not grow with the accounts.
 */
export class WindowRows implements WindowShelf {
  constructor(private readonly db: Queryable) {}

  async read(place: WindowPlace): Promise<string | null | "too large"> {
    const { rows } = await this.db.query<{ body: string | null }>(
      "SELECT CASE WHEN octet_length(body) <= $3 THEN body END AS body FROM custody_known_windows WHERE workspace = $1 AND account_id = $2",
      [place.workspace, place.account_id, SAVED_WINDOW_MAX_BYTES],
    );
    const row = rows[0];
    return row === undefined ? null : (row.body ?? "too large");
  }

  async write(place: WindowPlace, text: string): Promise<void> {
    await this.db.query(
      "INSERT INTO custody_known_windows (workspace, account_id, body) VALUES ($1, $2, $3) " +
        "ON CONFLICT (workspace, account_id) DO UPDATE SET body = EXCLUDED.body, saved_at = now()",
      [place.workspace, place.account_id, text],
    );
  }
}

/** The store's identity a saved window is bound to: the database's own (migration 9), the same for every replica (null: none). */
export async function storeIdentity(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ identity: string }>("SELECT identity::text AS identity FROM custody_store_identity WHERE id = 1");
  return rows[0] === undefined ? null : `postgres ${rows[0].identity}`;
}
