import type { RefusalReason } from "./road-types.js";

/** Why the road stops a call before anything is sent, as one check finds it. */
export interface Refusal {
  reason: RefusalReason;
  message: string;
  /** What the refusal's record and answer add: the transaction a reused intent created. */
  facts?: Record<string, unknown>;
}

/** One named check before sending: null when what it holds still holds. */
export type RoadCheck<Subject> = (subject: Subject) => Refusal | null | Promise<Refusal | null>;

/** The first refusal of the checks, in their order (each runs only when those before it passed), or null. */
export async function firstRefusal<Subject>(checks: readonly RoadCheck<Subject>[], subject: Subject): Promise<Refusal | null> {
  for (const check of checks) {
    const refusal = await check(subject);
    if (refusal !== null) return refusal;
  }
  return null;
}
