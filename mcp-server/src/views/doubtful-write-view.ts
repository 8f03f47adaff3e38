import { durationText, momentText, type WriteTrace } from "@custody/shared";
import { z } from "zod";

/** Where a write whose answer was lost (or never came) stands, in one word. */
const Standing = z.enum(["unknown", "found", "not_applied"]);
type Standing = z.infer<typeof Standing>;

/** One of the guard's own writes whose outcome was in doubt, as list_activity gives it. */
export const DoubtfulWriteView = z.object({
  reference: z.string(),
  tool: z.string(),
  sent_at: z.string(),
  answer_lost_at: z.string().nullable(),
  outcome: Standing,
  transaction_id: z.number().nullable(),
  concluded_at: z.string().nullable(),
  looking_up: z.boolean(),
  looked_for_seconds: z.number().optional(),
});

function standingOf(trace: WriteTrace): Standing {
  if (trace.transaction_id !== null) return "found";
  return trace.status === "not_applied" ? "not_applied" : "unknown";
}

const at = (timestamp: string) => momentText(new Date(timestamp));

/** How its look-ups recognise the write: a Solana stake action's body carries no reference, an approval makes no transaction of its own. */
function lookedUpBy(trace: WriteTrace): string {
  const lost = trace.recognition?.lost;
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

/** One of the guard's own writes whose outcome was in doubt, for structuredContent. */
export function doubtfulWriteView(trace: WriteTrace, lookingUp: boolean): z.infer<typeof DoubtfulWriteView> {
  return {
    reference: trace.reference,
    tool: trace.tool,
    sent_at: trace.reserved_at,
    answer_lost_at: trace.answer_lost_at ?? null,
    outcome: standingOf(trace),
    transaction_id: trace.transaction_id,
    concluded_at: trace.concluded_at ?? null,
    looking_up: lookingUp,
    ...(trace.looked_for_ms === undefined ? {} : { looked_for_seconds: Math.round(trace.looked_for_ms / 1000) }),
  };
}

/** What the look-ups found, and for a write still unknown what counts and how to go on. */
function conclusion(trace: WriteTrace, lookingUp: boolean): string {
  const standing = standingOf(trace);
  const when = trace.concluded_at === undefined ? "" : ` at ${at(trace.concluded_at)}`;
  if (standing === "found") return `found as transaction ${trace.transaction_id}${when}`;
  if (standing === "not_applied") return `not applied${when}`;
  const looked = lookingUp
    ? "still being looked up"
    : trace.given_up === true
      ? `not found ${lookedUpBy(trace)} in look-ups${trace.looked_for_ms === undefined ? "" : ` over ${durationText(trace.looked_for_ms / 1000)}`}${when}, which have stopped`
      : "no look-up under way in this server (the next to open the store resumes it)";
  const next = `${howToFind(trace)}; to send it again anyway, a new dry run of it names the repeat_of to pass (DUPLICATE_OF_RECENT) once the person accepts it may pay twice`;
  return `UNKNOWN, ${looked}: it may still be applied and counts against the daily limit; ${next}`;
}

/** "cw-... create_transaction sent 10:40Z, answer lost 10:41Z: found as transaction 31 at 10:42Z". */
export function doubtfulWriteLine(trace: WriteTrace, lookingUp: boolean): string {
  const lost = trace.answer_lost_at === undefined ? ", no answer recorded" : `, answer lost ${at(trace.answer_lost_at)}`;
  return `${trace.reference} ${trace.tool} sent ${at(trace.reserved_at)}${lost}: ${conclusion(trace, lookingUp)}`;
}
