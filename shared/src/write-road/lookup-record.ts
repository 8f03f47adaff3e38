import type { AuditInput } from "../audit/audit-entry.js";
import type { GuardStore } from "../guard-store/guard-store.js";

/**
 * Appends the record of one background look-up that did not find the write (a `looked_up`
 * record, lookedUpRecord): the store folds it into the write's trace, so any process tells how
 * many look-ups were made and what the last found without reading the log.
 */
export async function recordLookup(store: GuardStore, record: AuditInput): Promise<void> {
  try {
    await store.append(record);
  } catch {
    // Only the tally misses it: the write stays unknown and counted, and the next look-up is recorded.
  }
}
