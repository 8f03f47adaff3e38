import { SealedIntent, type WriteRequest } from "@custody/shared";
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import type { TokenBinding } from "../server/confirmation-token.js";
import type { ServerContext } from "../server/server-context.js";
import type { ToolCall } from "../server/tool-call.js";
import { otherArgumentsRefusal, type CalledAccount } from "./person-arguments.js";
import { personNonce } from "./person-intent.js";
import { askOnPage, pageDecision } from "./person-page-question.js";
import { retriedQuestion } from "./retried-question.js";

type Intent = TokenBinding & { nonce: string };

/**
 * Token mode for a client that declares URL elicitation and not form (asksOnPage): the token does not confirm alone; its
 * call asks the client to show the person the dry run's confirmation page, as person mode does, and the retried call reads
 * what the person decided there. Null where the page cannot confirm this dry run: it is no longer open (the road answers
 * reused, superseded or expired, as before) or it kept no request for the page to commit (prepared for a client that
 * declared forms, its nonce not the one its reference derives): then the road confirms as it did, with the token alone.
 */
export async function tokenPageRoundTrip(
  called: { request: WriteRequest; account: CalledAccount | null },
  intent: Intent,
  call: ToolCall,
): Promise<CallToolResult | InputRequiredResult | null> {
  const { input } = call;
  if (input.state === undefined) {
    const reference = await pageReference(call.ctx, intent);
    if (reference === null) return null;
    return (await otherArgumentsRefusal(call, reference, intent, called, "confirmation_token")) ?? askOnPage(reference, intent, call, "confirmation_token");
  }
  const opened = await retriedQuestion(call, input.state, intent);
  if (!opened.ok) return opened.answer;
  // A form's state (the client declared forms when it was asked): its answer is the form's road.
  const reference = opened.state.reference;
  if (reference === undefined) return null;
  return (
    (await otherArgumentsRefusal(call, reference, intent, called, "confirmation_token")) ??
    pageDecision(reference, intent, call, opened.state, "confirmation_token")
  );
}

/** The reference of an open, unexpired dry run whose nonce its reference derives (so it kept its request for the page), or null. */
async function pageReference(ctx: Pick<ServerContext, "road" | "tokens" | "now">, intent: Intent): Promise<string | null> {
  const standing = await ctx.road.store.lookUpIntent(intent.nonce);
  if (standing.outcome !== "open") return null;
  const sealed = SealedIntent.parse(JSON.parse(standing.sealed));
  if (ctx.now().getTime() >= sealed.expires_at) return null;
  return personNonce(ctx.tokens, sealed.correlation_id, intent) === intent.nonce ? sealed.correlation_id : null;
}
