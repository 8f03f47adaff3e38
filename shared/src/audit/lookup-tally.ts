import { z } from "zod";
import type { AuditRecord } from "./audit-entry.js";

/** The event a background look-up that did not conclude is recorded with (one record per look-up). */
export const LOOKED_UP_EVENT = "looked_up";

/** At most this many candidates' ids are kept with a look-up. */
const MAX_KEPT_CANDIDATES = 10;

/** What one look-up of a write whose answer was lost found: nothing, transactions that could be it but differ or are several, or it could not read. */
export const LastLookup = z.object({
  at: z.string(),
  found: z.enum(["nothing", "candidates", "failed"]),
  /** The candidates' transaction ids, when it found candidates (at most 10). */
  candidates: z.array(z.int()).max(MAX_KEPT_CANDIDATES).optional(),
});
export type LastLookup = z.infer<typeof LastLookup>;

/** What a trace keeps of its look-ups: how many were made (by any process), and the last one. */
export interface LookupTally {
  lookups?: number | undefined;
  last_lookup?: LastLookup | undefined;
}

/** The `details` of a `looked_up` record (beside the write's reference). */
export function lookupDetails(found: LastLookup["found"], candidates: readonly number[] = []): Record<string, unknown> {
  return { found, ...(found === "candidates" ? { candidates: candidates.slice(0, MAX_KEPT_CANDIDATES) } : {}) };
}

/** The tally after one more `looked_up` record; the same tally when the record's details do not parse. */
export function tallyLookup(tally: LookupTally, record: AuditRecord): LookupTally {
  const last = LastLookup.omit({ at: true }).safeParse(record.details);
  if (!last.success) return tally;
  return { lookups: (tally.lookups ?? 0) + 1, last_lookup: { at: record.at, ...last.data } };
}
