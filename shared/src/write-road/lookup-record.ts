import type { GuardStore } from "../guard-store/guard-store.js";
import { LOOKED_UP_EVENT, lookupDetails } from "../audit/lookup-tally.js";
import type { WatchedWrite } from "./background-lookups.js";
import type { LookupResult } from "./lost-answer-lookup.js";

/**
 * Records one background look-up that did not find the write (a `looked_up` record): the store
 * folds it into the write's trace, so any process tells how many look-ups were made and what the
 * last found without reading the log.
 */
export async function recordLookup(store: GuardStore, surface: string, write: WatchedWrite, result: Exclude<LookupResult, { found: "one" }> | null): Promise<void> {
  const found = result === null ? lookupDetails("failed") : result.found === "none" ? lookupDetails("nothing") : lookupDetails("candidates", result.candidates.map((candidate) => candidate.id));
  try {
    await store.append({
      event: LOOKED_UP_EVENT,
      surface,
      operator: write.operator,
      person: write.person,
      tool: write.tool,
      request_digest: null,
      details: { reference: write.reference, stage: "background_lookup", ...found },
    });
  } catch {
    // Only the tally misses it: the write stays unknown and counted, and the next look-up is recorded.
  }
}
