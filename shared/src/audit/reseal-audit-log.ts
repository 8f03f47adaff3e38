import type { AuditRecord } from "./audit-entry.js";
import { AuditLog } from "./audit-log.js";
import type { AuditSealKey } from "./seal-key.js";

/**
 * A person's answer to a store its seal stopped, once they have looked: seals the log as it now
 * is (every line verified: a broken chain is refused, not sealed), with a `sealed` record naming
 * what the replaced seal said and what the log holds, and rebuilds its ledger from the log. Also
 * how the key is rotated: put the new key in place, then reseal.
 */
export async function resealAuditLog(path: string, key: AuditSealKey): Promise<AuditRecord> {
  const log = new AuditLog(path, undefined, { sealKey: key, resealing: true });
  const record = await log.sealPending();
  log.close();
  if (record === null) throw new Error("unreachable: a reseal wrote no sealed record");
  return record;
}
