import { durationText, momentText } from "../dates/duration-text.js";
import type { WriteTrace } from "../audit/write-traces.js";
import type { LostAnswer } from "../kinds/kit/lost-answer-fields.js";
import type { LastLookup } from "../audit/lookup-tally.js";

/**
 * How a write whose answer was lost is recognised, in words: a Solana stake action's body carries
 * no reference, an approval makes no transaction of its own. A write recorded before recognitions
 * were kept carried its reference in its note.
 */
export function lookedUpBy(lost: LostAnswer | undefined): string {
  if (lost?.by === "new_transactions") return "among the account's new transactions";
  if (lost?.by === "approval") return `among transaction ${lost.transaction_id}'s approvals`;
  return "by its reference";
}

/** Where to see whether the write appeared after all. */
function howToFind(trace: WriteTrace): string {
  const lost = trace.recognition?.lost;
  if (lost?.by === "new_transactions") return "search_transactions on its account since it was sent tells if it appeared";
  if (lost?.by === "approval") return `get_request_status of transaction ${lost.transaction_id} tells if the approval counted`;
  return `search_transactions label ${trace.reference} tells if it appeared`;
}

/** What the last look-up found: "found nothing", "found transactions 12, 14, which could be it but differ or are several", "could not read the workspace". */
function lastFound(last: LastLookup): string {
  if (last.found === "candidates") return `found transaction(s) ${(last.candidates ?? []).join(", ")}, which could be it but differ from it or are several`;
  return last.found === "nothing" ? "found nothing" : "could not read the workspace";
}

/** "3 look-ups so far, the last at 10:12Z found nothing" (null before the first was recorded). */
function lookupsSoFar(trace: WriteTrace): string | null {
  if (trace.lookups === undefined || trace.last_lookup === undefined) return null;
  return (
    `${trace.lookups} look-up${trace.lookups === 1 ? "" : "s"} so far, the last at ` +
    `${momentText(new Date(trace.last_lookup.at))} ${lastFound(trace.last_lookup)}`
  );
}

/** How the stopped look-ups ran: "in 12 look-ups until 10:42Z", or for a write recorded before they were counted, "in look-ups over 2 min until 10:42Z". */
function stoppedLookups(trace: WriteTrace): string {
  const last = trace.last_lookup;
  if (trace.lookups !== undefined && last !== undefined) {
    const found = last.found === "nothing" ? "" : ` (the last ${lastFound(last)})`;
    return `in ${trace.lookups} look-up${trace.lookups === 1 ? "" : "s"} until ${momentText(new Date(last.at))}${found}`;
  }
  const over = trace.looked_for_ms === undefined ? "" : ` over ${durationText(trace.looked_for_ms / 1000)}`;
  const until = trace.concluded_at === undefined ? "" : ` until ${momentText(new Date(trace.concluded_at))}`;
  return `in look-ups${over}${until}`;
}

/** What the look-ups of a write whose outcome is unknown came to: under way, stopped without finding it, or none under way here. */
export function lookupsText(trace: WriteTrace, lookingUp: boolean): string {
  const soFar = lookupsSoFar(trace);
  if (lookingUp) return soFar === null ? "still being looked up" : `still being looked up (${soFar})`;
  if (trace.given_up !== true) return `no look-up under way in this server (${soFar === null ? "" : `${soFar}; `}the next to open the store resumes it)`;
  return `not found ${lookedUpBy(trace.recognition?.lost)} ${stoppedLookups(trace)}, which have stopped`;
}

/**
 * The one wording of a write whose outcome is unknown, wherever it is told (list_activity, a
 * search by its reference, a confirmation used again): what was looked up and found, that it
 * still counts against the limits, and how to go on.
 */
export function unknownOutcomeText(trace: WriteTrace, lookingUp: boolean): string {
  const next =
    `${howToFind(trace)}; to send it again anyway, a new dry run of it names the repeat_of to ` +
    "pass (DUPLICATE_OF_RECENT) once the person accepts it may pay twice";
  return `UNKNOWN, ${lookupsText(trace, lookingUp)}: it may still be applied and counts against the daily limit; ${next}`;
}
