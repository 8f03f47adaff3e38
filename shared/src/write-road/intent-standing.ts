import { STOPPED_BEFORE_RESERVING, type GuardStore, type IntentStanding } from "../guard-store/guard-store.js";
import { localText } from "../l10n/translate.js";
import { refusal, type Refusal } from "./road-check.js";
import { limitWindowStart } from "./road-plan-context.js";
import { unknownOutcomeLocalText } from "./unknown-outcome-text.js";

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
  const wrote = standing.reference === null || standing.reference === STOPPED_BEFORE_RESERVING ? null : standing.reference;
  // Among the day's writes: an intent lives an hour at most, and a file store would otherwise search its whole log for a write
  // not yet reserved (one whose confirmation is still under way).
  const earlier = wrote === null ? null : await store.writeByReference(wrote, limitWindowStart(store));
  const what =
    earlier?.transaction_id != null
      ? localText("; it created transaction {0}", earlier.transaction_id)
      : earlier?.status === "uncertain"
        ? localText("; it went on to the write with reference {0}, {1}", earlier.reference, unknownOutcomeLocalText(earlier, lookingUp(earlier.reference)))
        : standing.reference === null
          ? localText("; its first confirmation is still under way (it may still send)")
          : wrote === null
            ? ""
            : localText("; it went on to the write with reference {0}", wrote);
  return refusal("reused", localText("already used (a confirmation submits once){0}. Nothing was sent", what), {
    transaction_id: earlier?.transaction_id ?? null,
  });
}
