import type { CustodyClient } from "../client/custody-client.js";
import { AmbiguousWriteError, CustodyApiError, InvalidInputError, NetworkError, ResponseValidationError } from "../client/errors.js";
import type { Transaction } from "../schemas/transaction.js";
import type { WriteRecognition } from "../kinds/kit/lost-answer-fields.js";
import {
  describeCandidates,
  lookUpLostAnswer,
  recognitionOf,
  unansweredWrite,
  unreadClause,
  type Candidate,
  type LookupResult,
  type UnansweredWrite,
} from "./lost-answer-lookup.js";
import type { PlannedWrite } from "./planned-write.js";
import { errorLocalText, errorMessage } from "../untrusted/error-message.js";
import { localText, renderText, type LocalText } from "../l10n/translate.js";
import type { UnclearAnswer } from "../audit/unclear-answer.js";

/** `message` is in English (recorded, answered by the MCP server); `text` is the same as its template and values, for a surface to translate. */
export type SendOutcome =
  | { status: "submitted"; transaction: Transaction; looked_up: false }
  /** Its answer was unclear and a look-up at once found it. */
  | { status: "submitted"; transaction: Transaction; looked_up: true; answer: UnclearAnswer }
  /** Certainly not applied: the service refused the POST with a definite answer, or the request never left. */
  | { status: "not_applied"; message: string; text: LocalText }
  /** The answer was lost and no look-up found exactly this write: it may still be applied. */
  | { status: "uncertain"; message: string; text: LocalText; cause: string; answer: UnclearAnswer; candidates: Candidate[] };

/** Whether the service may have applied a POST that did not answer cleanly. */
export function isAmbiguous(error: unknown): boolean {
  return error instanceof AmbiguousWriteError || error instanceof ResponseValidationError || (error instanceof CustodyApiError && error.checkBeforeRetry);
}

/** Whether an error of the POST establishes that the write did not happen: a definite refusal, or a request that never left. */
function certainlyNotApplied(error: unknown): boolean {
  if (error instanceof InvalidInputError) return true;
  if (error instanceof NetworkError) return error.method === "POST";
  return error instanceof CustodyApiError && error.method === "POST" && !error.checkBeforeRetry;
}

const QUICK_LOOKUPS = 3;
const QUICK_PAUSE_MS = 300;

async function lookUpQuickly(client: CustodyClient, write: UnansweredWrite): Promise<LookupResult> {
  let result: LookupResult = { found: "none" };
  for (let attempt = 0; attempt < QUICK_LOOKUPS; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, QUICK_PAUSE_MS * attempt));
    result = await lookUpLostAnswer(client, write);
    if (result.found === "one") return result;
  }
  return result;
}

/** What came back from a POST whose outcome is unknown (one of isAmbiguous's errors): an error that does not say, an unreadable answer, or nothing. */
function answerOf(error: unknown): UnclearAnswer {
  if ((error instanceof AmbiguousWriteError && error.reason === "status") || error instanceof CustodyApiError) {
    return { kind: "server_error", http_status: error.status };
  }
  return error instanceof ResponseValidationError ? { kind: "unreadable" } : { kind: "lost" };
}

/** What came back, as the write's own answer says it. */
function whatCameBack(answer: UnclearAnswer): LocalText {
  if (answer.kind === "server_error")
    return localText("the service answered HTTP {0} with an error that does not say whether the write was applied", answer.http_status ?? "?");
  return answer.kind === "unreadable" ? localText("the service's answer could not be read") : localText("the service's answer was lost");
}

/** The text of a write whose outcome is unknown: never "not applied". */
export function uncertainText(plan: PlannedWrite, what: LocalText): LocalText {
  return localText(
    "{0}; it may still be applied. Nothing was re-sent. Before any new attempt, search the transactions by its reference {1}: " +
      "the guard keeps looking it up and names it in the next dry run of the same write",
    what,
    plan.correlation_id,
  );
}

/** A write whose outcome is unknown, with its message in English and its text beside it. */
function uncertain(plan: PlannedWrite, what: LocalText, cause: string, answer: UnclearAnswer, candidates: Candidate[] = []): SendOutcome {
  const text = uncertainText(plan, what);
  return { status: "uncertain", message: renderText(text), text, cause, answer, candidates };
}

function notApplied(text: LocalText): SendOutcome {
  return { status: "not_applied", message: renderText(text), text };
}

/**
 * Sends the planned write once. The POST is never repeated: a lost answer (timeout, dropped
 * connection, unreadable answer) is looked up with GETs a few times at once, by the recognition
 * the store keeps (read here when the caller has none); what is still unknown then is
 * `uncertain`, for the caller to keep looking up. A failure before the POST, or a definite
 * refusal, is `not_applied`.
 */
export async function sendOnce(client: CustodyClient, plan: PlannedWrite, kept?: WriteRecognition): Promise<SendOutcome> {
  let recognition: WriteRecognition;
  try {
    recognition = kept ?? (await recognitionOf(client, plan));
  } catch (error) {
    return notApplied(localText("the account's newest transaction could not be read before sending ({0}); nothing was sent", errorLocalText(error)));
  }
  const write = unansweredWrite(plan, recognition);
  try {
    // No abort signal: once sent, the write is seen through (answer or look-up) even if the caller goes away.
    return { status: "submitted", transaction: await plan.send(client, {}), looked_up: false };
  } catch (error) {
    const cause = errorMessage(error);
    if (certainlyNotApplied(error)) return notApplied(errorLocalText(error));
    if (!isAmbiguous(error)) return uncertain(plan, localText("the POST failed unexpectedly ({0})", errorLocalText(error)), cause, { kind: "unexpected" });
    const answer = answerOf(error);
    const came = whatCameBack(answer);
    let result: LookupResult;
    try {
      result = await lookUpQuickly(client, write);
    } catch (lookupError) {
      return uncertain(plan, localText("{0} and the look-up failed ({1})", came, errorLocalText(lookupError)), cause, answer);
    }
    if (result.found === "one") return { status: "submitted", transaction: result.transaction, looked_up: true, answer };
    if (result.found === "candidates") {
      const what = localText(
        "{0}; transactions {1} could be this write but none matches it exactly and alone{2}",
        came,
        describeCandidates(result.candidates),
        unreadClause(result),
      );
      return uncertain(plan, what, cause, answer, result.candidates);
    }
    return uncertain(plan, localText("{0} and no transaction matching this write exists yet{1}", came, unreadClause(result)), cause, answer);
  }
}
