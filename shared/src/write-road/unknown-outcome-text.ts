import { durationText, momentText } from "../dates/duration-text.js";
import type { WriteTrace } from "../audit/write-traces.js";
import type { LostAnswer } from "../kinds/kit/lost-answer-fields.js";
import type { LastLookup } from "../audit/lookup-tally.js";
import { english, type Translate } from "../l10n/translate.js";

/**
 * How a write whose answer was lost is recognised, in words: a Solana stake action's body carries
 * no reference, an approval makes no transaction of its own. A write recorded before recognitions
 * were kept carried its reference in its note.
 */
export function lookedUpBy(lost: LostAnswer | undefined, t: Translate = english): string {
  if (lost?.by === "new_transactions") return t("among the account's new transactions");
  if (lost?.by === "approval") return t("among transaction {0}'s approvals", lost.transaction_id);
  return t("by its reference");
}

/** Where to see whether the write appeared after all. */
function howToFind(trace: WriteTrace, t: Translate): string {
  const lost = trace.recognition?.lost;
  if (lost?.by === "new_transactions") return t("search_transactions on its account since it was sent tells if it appeared");
  if (lost?.by === "approval") return t("get_request_status of transaction {0} tells if the approval counted", lost.transaction_id);
  return t("search_transactions label {0} tells if it appeared", trace.reference);
}

/** What the last look-up found: "found nothing", "found transactions 12, 14, which could be it but differ or are several", "could not read the workspace". */
function lastFound(last: LastLookup, t: Translate): string {
  if (last.found === "candidates")
    return t("found transaction(s) {0}, which could be it but differ from it or are several", (last.candidates ?? []).join(", "));
  return last.found === "nothing" ? t("found nothing") : t("could not read the workspace");
}

/** "3 look-ups" (one template per number, as a bundle translates a plural). */
function lookupCount(count: number, t: Translate): string {
  return count === 1 ? t("1 look-up") : t("{0} look-ups", count);
}

/** "3 look-ups so far, the last at 10:12Z found nothing" (null before the first was recorded). */
function lookupsSoFar(trace: WriteTrace, t: Translate): string | null {
  if (trace.lookups === undefined || trace.last_lookup === undefined) return null;
  return t("{0} so far, the last at {1} {2}", lookupCount(trace.lookups, t), momentText(new Date(trace.last_lookup.at)), lastFound(trace.last_lookup, t));
}

/** How the stopped look-ups ran: "in 12 look-ups until 10:42Z", or for a write recorded before they were counted, "in look-ups over 2 min until 10:42Z". */
function stoppedLookups(trace: WriteTrace, t: Translate): string {
  const last = trace.last_lookup;
  if (trace.lookups !== undefined && last !== undefined) {
    const found = last.found === "nothing" ? "" : t(" (the last {0})", lastFound(last, t));
    return t("in {0} until {1}{2}", lookupCount(trace.lookups, t), momentText(new Date(last.at)), found);
  }
  const over = trace.looked_for_ms === undefined ? "" : t(" over {0}", durationText(trace.looked_for_ms / 1000));
  const until = trace.concluded_at === undefined ? "" : t(" until {0}", momentText(new Date(trace.concluded_at)));
  return t("in look-ups{0}{1}", over, until);
}

/** What the look-ups of a write whose outcome is unknown came to: under way, stopped without finding it, or none under way here. */
export function lookupsText(trace: WriteTrace, lookingUp: boolean, t: Translate = english): string {
  const soFar = lookupsSoFar(trace, t);
  if (lookingUp) return soFar === null ? t("still being looked up") : t("still being looked up ({0})", soFar);
  if (trace.given_up !== true) {
    return soFar === null
      ? t("no look-up under way in this server (the next to open the store resumes it)")
      : t("no look-up under way in this server ({0}; the next to open the store resumes it)", soFar);
  }
  return t("not found {0} {1}, which have stopped", lookedUpBy(trace.recognition?.lost, t), stoppedLookups(trace, t));
}

/**
 * The one wording of a write whose outcome is unknown, wherever it is told (list_activity, a
 * search by its reference, a confirmation used again): what was looked up and found, that it
 * still counts against the limits, and how to go on. `t` translates each template (the MCP server keeps English).
 */
export function unknownOutcomeText(trace: WriteTrace, lookingUp: boolean, t: Translate = english): string {
  return t(
    "UNKNOWN, {0}: it may still be applied and counts against the daily limit; {1}; to send it again anyway, a new dry run of it names the repeat_of to pass (DUPLICATE_OF_RECENT) once the person accepts it may pay twice",
    lookupsText(trace, lookingUp, t),
    howToFind(trace, t),
  );
}
