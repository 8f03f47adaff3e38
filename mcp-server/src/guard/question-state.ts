import { createHash } from "node:crypto";
import { isCorrelationId } from "@custody/shared";
import { z } from "zod";
import type { ConfirmationTokens, TokenBinding } from "../server/confirmation-token.js";
import { openHandle, sealHandle, type SealedKind, type SealRefusal } from "../server/sealed-handle.js";

/** A requestState longer than this is not one this server minted: refused before it is decoded. */
const MAX_STATE_CHARS = 1024;

/**
 * What the person was asked, sealed into the input-required `requestState` the client echoes
 * with its answer: the intent (its nonce, not the token), who may answer (tool, operator, person),
 * the digest of the question shown, and when it stops counting (no later than the intent). A page's
 * question also seals the dry run's reference: a token-mode retry names its dry run only by the token.
 */
const QuestionState = z.strictObject({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  tool: z.string(),
  operator: z.string(),
  person: z.string().nullable(),
  question: z.string().regex(/^[0-9a-f]{64}$/),
  expires_at: z.int().nonnegative(),
  reference: z.string().refine(isCorrelationId).optional(),
});
export type QuestionState = z.infer<typeof QuestionState>;

const QUESTION: SealedKind<QuestionState> = { prefix: "q1", purpose: "custody.question.v1", maxChars: MAX_STATE_CHARS, payload: QuestionState };

const REFUSALS: Record<SealRefusal, string> = {
  overlong: `longer than ${MAX_STATE_CHARS} characters, not one this server issued`,
  malformed: "not one this server issued (malformed)",
  signature: "its signature does not match (altered, or issued by a server with another token secret)",
  unreadable: "not one this server issued (unreadable)",
  content: "not one this server issued (unexpected content)",
};

/** The digest of the question as the person sees it. */
export function questionDigest(message: string): string {
  return createHash("sha256").update(message).digest("hex");
}

/** `q1.<base64url JSON>.<HMAC>` under the token secret: any replica can check it, none needs to remember it. */
export function sealQuestion(tokens: ConfirmationTokens, state: QuestionState): string {
  return sealHandle(tokens, QUESTION, state);
}

export type QuestionCheck = { ok: true; state: QuestionState } | { ok: false; message: string };

/**
 * The state a retried confirmation carries, if this server sealed it for this intent and this
 * tool, operator and person, and it has not expired; otherwise why not. Nothing is used up here:
 * the intent is redeemed once, by the confirmation, so a replayed state reads "already used".
 */
export function openQuestion(tokens: ConfirmationTokens, wire: string, expected: TokenBinding & { nonce: string }, now: number): QuestionCheck {
  const refused = (why: string): QuestionCheck => ({
    ok: false,
    message: `requestState: ${why}; nothing was sent: confirm again (with the token, or in person mode the reference) to be asked again`,
  });
  const opened = openHandle(tokens, QUESTION, wire);
  if (!opened.ok) return refused(REFUSALS[opened.refusal]);
  const state = opened.payload;
  if (state.nonce !== expected.nonce || state.tool !== expected.tool || state.operator !== expected.operator || state.person !== expected.person) {
    return refused(
      `issued for another confirmation, tool, operator or person than this one (${expected.tool} ` +
        `as ${expected.operator}${expected.person === null ? "" : " for you"})`,
    );
  }
  if (now >= state.expires_at) return refused(`the question expired at ${new Date(state.expires_at).toISOString()}`);
  return { ok: true, state };
}
