import { durationText, momentText } from "../dates/duration-text.js";
import type { WriteTrace } from "../audit/write-traces.js";
import type { LostAnswer } from "../kinds/kit/lost-answer-fields.js";
import type { LastLookup } from "../audit/lookup-tally.js";
import type { UnclearAnswer } from "../audit/unclear-answer.js";
import { english, localText, renderText, type LocalText, type Translate } from "../l10n/translate.js";

/**
 * How a write whose answer was lost is recognised, in words: a Solana stake action's body carries
 * no reference, an approval makes no transaction of its own. A write recorded before recognitions
 * were kept carried its reference in its note.
 */
function lookedUpByText(lost: LostAnswer | undefined): LocalText {
  if (lost?.by === "new_transactions") return localText("among the account's new transactions");
  if (lost?.by === "approval") return localText("among transaction {0}'s approvals", lost.transaction_id);
  return localText("by its reference");
}

/** How a write whose answer was lost is recognised, in the translator's language. */
export function lookedUpBy(lost: LostAnswer | undefined, t: Translate = english): string {
  return renderText(lookedUpByText(lost), t);
}

/** Where to see whether the write appeared after all. */
function howToFind(trace: WriteTrace): LocalText {
  const lost = trace.recognition?.lost;
  if (lost?.by === "new_transactions") return localText("search_transactions on its account since it was sent tells if it appeared");
  if (lost?.by === "approval") return localText("get_request_status of transaction {0} tells if the approval counted", lost.transaction_id);
  return localText("search_transactions label {0} tells if it appeared", trace.reference);
}

/**
 * What a write whose outcome its answer left unknown got back, with the write as its subject: the one wording of list_activity
 * and DUPLICATE_OF_RECENT. Only a write that got nothing "lost its answer"; a 5xx with an error body was answered.
 */
function unclearAnswerLocalText(answer: UnclearAnswer | undefined): LocalText {
  if (answer === undefined) return localText("got no clear answer");
  if (answer.kind === "server_error")
    return localText("was answered HTTP {0} with an error that does not say whether it was applied", answer.http_status ?? "?");
  if (answer.kind === "unreadable") return localText("was answered, but its answer could not be read");
  return answer.kind === "lost" ? localText("lost its answer") : localText("failed in a way that does not say whether it was applied");
}

/** What the write's POST got back, in the translator's language: "lost its answer", "was answered HTTP 503 with an error that …". */
export function unclearAnswerText(trace: Pick<WriteTrace, "answer">, t: Translate = english): string {
  return renderText(unclearAnswerLocalText(trace.answer), t);
}

/** What the last look-up found: "found nothing", "found transactions 12, 14, which could be it but differ or are several", "could not read the workspace". */
function lastFound(last: LastLookup): LocalText {
  if (last.found === "candidates")
    return localText("found transaction(s) {0}, which could be it but differ from it or are several", (last.candidates ?? []).join(", "));
  return last.found === "nothing" ? localText("found nothing") : localText("could not read the workspace");
}

/** "3 look-ups" (one template per number, as a bundle translates a plural). */
function lookupCount(count: number): LocalText {
  return count === 1 ? localText("1 look-up") : localText("{0} look-ups", count);
}

/** "3 look-ups so far, the last at 10:12Z found nothing" (null before the first was recorded). */
function lookupsSoFar(trace: WriteTrace): LocalText | null {
  if (trace.lookups === undefined || trace.last_lookup === undefined) return null;
  return localText("{0} so far, the last at {1} {2}", lookupCount(trace.lookups), momentText(new Date(trace.last_lookup.at)), lastFound(trace.last_lookup));
}

/** How the stopped look-ups ran: "in 12 look-ups until 10:42Z", or for a write recorded before they were counted, "in look-ups over 2 min until 10:42Z". */
function stoppedLookups(trace: WriteTrace): LocalText {
  const last = trace.last_lookup;
  if (trace.lookups !== undefined && last !== undefined) {
    const found = last.found === "nothing" ? "" : localText(" (the last {0})", lastFound(last));
    return localText("in {0} until {1}{2}", lookupCount(trace.lookups), momentText(new Date(last.at)), found);
  }
  const over = trace.looked_for_ms === undefined ? "" : localText(" over {0}", durationText(trace.looked_for_ms / 1000));
  const until = trace.concluded_at === undefined ? "" : localText(" until {0}", momentText(new Date(trace.concluded_at)));
  return localText("in look-ups{0}{1}", over, until);
}

/** What the look-ups of a write whose outcome is unknown came to, as a text: under way, stopped without finding it, or none under way here. */
export function lookupsLocalText(trace: WriteTrace, lookingUp: boolean): LocalText {
  const soFar = lookupsSoFar(trace);
  if (lookingUp) return soFar === null ? localText("still being looked up") : localText("still being looked up ({0})", soFar);
  if (trace.given_up !== true) {
    return soFar === null
      ? localText("no look-up under way in this server (the next to open the store resumes it)")
      : localText("no look-up under way in this server ({0}; the next to open the store resumes it)", soFar);
  }
  return localText("not found {0} {1}, which have stopped", lookedUpByText(trace.recognition?.lost), stoppedLookups(trace));
}

/** What the look-ups of a write whose outcome is unknown came to, in the translator's language. */
export function lookupsText(trace: WriteTrace, lookingUp: boolean, t: Translate = english): string {
  return renderText(lookupsLocalText(trace, lookingUp), t);
}

/**
 * The one wording of a write whose outcome is unknown, wherever it is told (list_activity, a
 * search by its reference, a confirmation used again): what was looked up and found, that it
 * still counts against the limits, and how to go on; as a text, for a surface to render in its reader's language.
 */
export function unknownOutcomeLocalText(trace: WriteTrace, lookingUp: boolean): LocalText {
  return localText(
    "UNKNOWN, {0}: it may still be applied and counts against the daily limit; {1}; to send it again anyway, a new dry run of it names the repeat_of to pass (DUPLICATE_OF_RECENT) once the person accepts it may pay twice",
    lookupsLocalText(trace, lookingUp),
    howToFind(trace),
  );
}

/** The unknown outcome's wording in the translator's language (the MCP server keeps English). */
export function unknownOutcomeText(trace: WriteTrace, lookingUp: boolean, t: Translate = english): string {
  return renderText(unknownOutcomeLocalText(trace, lookingUp), t);
}
