import type { WriteTrace } from "../audit/write-traces.js";
import { STOPPED_BEFORE_RESERVING, type GuardStore } from "../guard-store/guard-store.js";
import { limitWindowStart } from "./road-plan-context.js";

/**
 * The write an intent went on to, by its reference. Looked up among the daily window's writes on the store's clock: an
 * intent lives an hour at most, and a file store would otherwise search its whole log for a write not yet reserved (a
 * confirmation still under way, which the URL-mode wait asks about twice a second).
 */
export function intentWrite(store: GuardStore, reference: string): Promise<WriteTrace | null> {
  return store.writeByReference(reference, limitWindowStart(store));
}

/** Where a used intent's confirmation stands: stopped before its reservation, still under way (no write reserved yet), or its write. */
export type UsedStanding = "stopped" | "under_way" | WriteTrace;

/** What the write a used intent names (`wrote`, the reference its redemption recorded) has become. */
export async function usedStanding(store: GuardStore, wrote: string | null): Promise<UsedStanding> {
  if (wrote === STOPPED_BEFORE_RESERVING) return "stopped";
  if (wrote === null) return "under_way";
  return (await intentWrite(store, wrote)) ?? "under_way";
}
