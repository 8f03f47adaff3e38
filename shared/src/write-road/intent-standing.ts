import type { GuardStore, IntentStanding } from "../guard-store/guard-store.js";
import { localText } from "../l10n/translate.js";
import { refusal, type Refusal } from "./road-check.js";
import { unknownOutcomeLocalText } from "./unknown-outcome-text.js";
import { usedStanding } from "./used-intent-write.js";

/** Why an intent the store does not hold open cannot be confirmed; a reused one names the write it went on to. */
export async function unusableIntent(
  standing: Exclude<IntentStanding, { outcome: "open" }>,
  store: GuardStore,
  lookingUp: (reference: string) => boolean,
): Promise<Refusal> {
  if (standing.outcome === "superseded")
    return refusal("superseded", localText("a newer dry run of the same write was made since: only its confirmation counts. Nothing was sent"));
  if (standing.outcome === "unknown")
    return refusal("unknown_intent", localText("this dry run is not known to the guard's store (expired, or made against another store); run a new dry run"));
  const used = await usedStanding(store, standing.reference);
  const earlier = typeof used === "string" ? null : used;
  const what =
    earlier?.transaction_id != null
      ? localText("; it created transaction {0}", earlier.transaction_id)
      : earlier?.status === "uncertain"
        ? localText("; it went on to the write with reference {0}, {1}", earlier.reference, unknownOutcomeLocalText(earlier, lookingUp(earlier.reference)))
        : used === "stopped"
          ? ""
          : standing.reference === null
            ? localText("; its first confirmation is still under way (it may still send)")
            : localText("; it went on to the write with reference {0}", standing.reference);
  return refusal("reused", localText("already used (a confirmation submits once){0}. Nothing was sent", what), {
    transaction_id: earlier?.transaction_id ?? null,
  });
}
