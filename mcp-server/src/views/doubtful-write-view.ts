import { LastLookup, momentText, UnclearAnswer, unclearAnswerText, unknownOutcomeText, type WriteTrace } from "@custody/shared";
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
  /** What came back from its POST then (only `lost` is a lost answer); null when none is recorded. */
  answer: UnclearAnswer.nullable(),
  outcome: Standing,
  transaction_id: z.number().nullable(),
  concluded_at: z.string().nullable(),
  looking_up: z.boolean(),
  looked_for_seconds: z.number().optional(),
  /** The background look-ups made so far by any process sharing the store, and what the last found. */
  lookups: z.number(),
  last_lookup: LastLookup.optional(),
});

function standingOf(trace: WriteTrace): Standing {
  if (trace.transaction_id !== null) return "found";
  return trace.status === "not_applied" ? "not_applied" : "unknown";
}

const at = (timestamp: string) => momentText(new Date(timestamp));

/** One of the guard's own writes whose outcome was in doubt, for structuredContent. */
export function doubtfulWriteView(trace: WriteTrace, lookingUp: boolean): z.infer<typeof DoubtfulWriteView> {
  return {
    reference: trace.reference,
    tool: trace.tool,
    sent_at: trace.reserved_at,
    answer_lost_at: trace.answer_lost_at ?? null,
    answer: trace.answer ?? null,
    outcome: standingOf(trace),
    transaction_id: trace.transaction_id,
    concluded_at: trace.concluded_at ?? null,
    looking_up: lookingUp,
    ...(trace.looked_for_ms === undefined ? {} : { looked_for_seconds: Math.round(trace.looked_for_ms / 1000) }),
    lookups: trace.lookups ?? 0,
    ...(trace.last_lookup === undefined ? {} : { last_lookup: trace.last_lookup }),
  };
}

/** What the look-ups found, and for a write still unknown what counts and how to go on. */
function conclusion(trace: WriteTrace, lookingUp: boolean): string {
  const standing = standingOf(trace);
  const when = trace.concluded_at === undefined ? "" : ` at ${at(trace.concluded_at)}`;
  if (standing === "found") return `found as transaction ${trace.transaction_id}${when}`;
  if (standing === "not_applied") return `not applied${when}`;
  return unknownOutcomeText(trace, lookingUp);
}

/**
 * "cw-... create_transaction sent 10:40Z; at 10:41Z it lost its answer: found as transaction 31 at 10:42Z" (or "it was answered
 * HTTP 503 with an error that does not say whether it was applied": not a lost answer).
 */
export function doubtfulWriteLine(trace: WriteTrace, lookingUp: boolean): string {
  const lost = trace.answer_lost_at === undefined ? ", no answer recorded" : `; at ${at(trace.answer_lost_at)} it ${unclearAnswerText(trace)}`;
  return `${trace.reference} ${trace.tool} sent ${at(trace.reserved_at)}${lost}: ${conclusion(trace, lookingUp)}`;
}
