import { SealedIntent, usedStanding, writeSpecOfTool } from "@custody/shared";
import { inputRequired, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import { speaksModernEra } from "../server/protocol-era.js";
import type { ToolCall } from "../server/tool-call.js";
import type { TokenBinding } from "../server/confirmation-token.js";
import { openedPage, pageQuestion } from "../server/elicitation.js";
import { beatWhileAsked, PROGRESS_EVERY_MS } from "./question-heartbeat.js";
import { questionDigest, sealQuestion } from "./question-state.js";
import { retriedQuestion } from "./retried-question.js";
import { personStanding, usedSettled } from "./person-standing.js";

/** How long a retried call waits for the person's decision on the page: under a client's usual 60-second request timeout. */
const DECISION_WAIT_MS = 45_000;
const POLL_MS = 500;
const ON_THE_PAGE =
  "on the confirmation page their client showed them (the same call with the same reference shows it again), or in an MCP client that shows forms";

type Intent = TokenBinding & { nonce: string };

/**
 * Person mode for a client that declares URL elicitation (single user): the call with the reference
 * asks the client to show the person the confirmation page, with its secret, in URL mode (the
 * client shows it the person, not the model); the retried call reads from the guard's store what
 * the person decided there, waiting a while for it. No path here commits: only the page does.
 */
export async function pageRoundTrip(reference: string, intent: Intent, call: ToolCall): Promise<CallToolResult | InputRequiredResult> {
  const { ctx, input } = call;
  if (input.state !== undefined) {
    const opened = await retriedQuestion(call, input.state, intent);
    if (!opened.ok) return opened.answer;
    if (openedPage(input.responses)) await decided(intent, call, opened.state.expires_at);
    return personStanding(reference, intent, ctx, ON_THE_PAGE);
  }
  const standing = await ctx.road.store.lookUpIntent(intent.nonce);
  const expiresAt = standing.outcome === "open" ? SealedIntent.parse(JSON.parse(standing.sealed)).expires_at : 0;
  if (ctx.now().getTime() >= expiresAt) return personStanding(reference, intent, ctx, ON_THE_PAGE);
  const url = await ctx.pages.personLink(ctx.forPerson(null), { reference, ...intent });
  const title = writeSpecOfTool(intent.tool)?.identity.title ?? intent.tool;
  const requestState = sealQuestion(ctx.tokens, { ...intent, question: questionDigest(url), expires_at: expiresAt });
  if (!speaksModernEra(call.session)) beatWhileAsked(call, expiresAt - ctx.now().getTime());
  return inputRequired({
    inputRequests: pageQuestion(
      `${title}: an assistant prepared this write. Confirm or decline it on this page; nothing is sent unless you confirm there.`,
      url,
    ),
    requestState,
  });
}

/**
 * Waits until the person's decision on the page has settled (declined, stopped, or its write answered: a used intent whose
 * write is not yet reserved or still in flight is not), it expires, the call is cancelled, or a while passes. One store read a
 * poll: the intent until the store holds the write it went on to, then that write alone (once reserved, what the intent names
 * cannot change). The intent and its write are both read only while it names a write not yet reserved (the moment between
 * the link and the reservation) and in the poll that first finds the write.
 */
async function decided(intent: Intent, call: ToolCall, expiresAt: number): Promise<void> {
  const { ctx } = call;
  const store = ctx.road.store;
  const deadline = Date.now() + Math.min(DECISION_WAIT_MS, expiresAt - ctx.now().getTime());
  let reserved: string | null = null;
  let beat = 0;
  while (!call.signal.aborted && Date.now() < deadline) {
    if (reserved === null) {
      const standing = await store.lookUpIntent(intent.nonce);
      if (standing.outcome !== "open") {
        if (standing.outcome !== "reused") return;
        const used = await usedStanding(store, standing.reference);
        if (usedSettled(used)) return;
        if (typeof used !== "string") reserved = used.reference;
      }
    } else if (usedSettled(await usedStanding(store, reserved))) return;
    if ((beat += POLL_MS) >= PROGRESS_EVERY_MS) {
      beat = 0;
      call.progress("waiting for the person's decision on the confirmation page");
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
