import { createHash } from "node:crypto";
import { z } from "zod";
import type { ConfirmationTokens, TokenBinding } from "../server/confirmation-token.js";

const PREFIX = "q1";
const PURPOSE = "custody.question.v1";
/** A requestState longer than this is not one this server minted: refused before it is decoded. */
const MAX_STATE_CHARS = 1024;

/**
 * What the person was asked, sealed into the input-required `requestState` the client echoes
 * with its answer: the intent (its nonce, not the token), who may answer (tool, operator, person),
 * the digest of the question shown, and when it stops counting (no later than the intent).
 */
const QuestionState = z.strictObject({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  tool: z.string(),
  operator: z.string(),
  person: z.string().nullable(),
  question: z.string().regex(/^[0-9a-f]{64}$/),
  expires_at: z.int().nonnegative(),
});
export type QuestionState = z.infer<typeof QuestionState>;

/** The digest of the question as the person sees it. */
export function questionDigest(message: string): string {
  return createHash("sha256").update(message).digest("hex");
}

/** `q1.<base64url JSON>.<HMAC>` under the token secret: any replica can check it, none needs to remember it. */
export function sealQuestion(tokens: ConfirmationTokens, state: QuestionState): string {
  const body = Buffer.from(JSON.stringify(state)).toString("base64url");
  return `${PREFIX}.${body}.${tokens.sign(PURPOSE, body)}`;
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
  if (wire.length > MAX_STATE_CHARS) return refused(`longer than ${MAX_STATE_CHARS} characters, not one this server issued`);
  const [prefix, body, mac, extra] = wire.split(".");
  if (prefix !== PREFIX || body === undefined || mac === undefined || extra !== undefined) return refused("not one this server issued (malformed)");
  if (!tokens.signed(PURPOSE, body, mac)) return refused("its signature does not match (altered, or issued by a server with another token secret)");
  let parsed;
  try {
    parsed = QuestionState.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
  } catch {
    return refused("not one this server issued (unreadable)");
  }
  if (!parsed.success) return refused("not one this server issued (unexpected content)");
  const state = parsed.data;
  if (state.nonce !== expected.nonce || state.tool !== expected.tool || state.operator !== expected.operator || state.person !== expected.person) {
    return refused(
      `issued for another confirmation, tool, operator or person than this one (${expected.tool} ` +
        `as ${expected.operator}${expected.person === null ? "" : " for you"})`,
    );
  }
  if (now >= state.expires_at) return refused(`the question expired at ${new Date(state.expires_at).toISOString()}`);
  return { ok: true, state };
}
