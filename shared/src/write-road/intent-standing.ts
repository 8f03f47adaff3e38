import type { GuardStore, IntentStanding } from "../guard-store/guard-store.js";
import type { Refusal } from "./road-check.js";
import { unknownOutcomeText } from "./unknown-outcome-text.js";

/** Why an intent the store does not hold open cannot be confirmed; a reused one names the write it went on to. */
export async function unusableIntent(
  standing: Exclude<IntentStanding, { outcome: "open" }>,
  store: GuardStore,
  lookingUp: (reference: string) => boolean,
): Promise<Refusal> {
  if (standing.outcome === "superseded")
    return { reason: "superseded", message: "a newer dry run of the same write was made since: only its confirmation counts. Nothing was sent" };
  if (standing.outcome === "unknown")
    return { reason: "unknown_intent", message: "this dry run is not known to the guard's store (expired, or made against another store); run a new dry run" };
  const earlier = standing.reference === null ? null : await store.writeByReference(standing.reference);
  const what =
    earlier?.transaction_id != null
      ? `; it created transaction ${earlier.transaction_id}`
      : earlier?.status === "uncertain"
        ? `; it went on to the write with reference ${earlier.reference}, ${unknownOutcomeText(earlier, lookingUp(earlier.reference))}`
        : standing.reference === null
          ? ""
          : `; it went on to the write with reference ${standing.reference}`;
  return {
    reason: "reused",
    message: `already used (a confirmation submits once)${what}. Nothing was sent`,
    facts: { transaction_id: earlier?.transaction_id ?? null },
  };
}
