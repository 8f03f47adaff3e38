import { setTimeout as sleep } from "node:timers/promises";
import { SealedIntent, usedStanding, writeSpecOfTool } from "@custody/shared";
import { inputRequired, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import { speaksModernEra } from "../server/protocol-era.js";
import type { ToolCall } from "../server/tool-call.js";
import type { TokenBinding } from "../server/confirmation-token.js";
import { openedPage, pageQuestion } from "../server/elicitation.js";
import { beatWhileAsked, PROGRESS_EVERY_MS } from "./question-heartbeat.js";
import { questionDigest, sealQuestion, type QuestionState } from "./question-state.js";
import { retriedQuestion } from "./retried-question.js";
import { personStanding, usedSettled } from "./person-standing.js";
import type { ConfirmField } from "./write-answers.js";

/** How long a retried call waits for the person's decision on the page: under a client's usual 60-second request timeout. */
const DECISION_WAIT_MS = 45_000;
/** How often it reads the store meanwhile, unless the pages say otherwise. */
const POLL_MS = 500;

type Intent = TokenBinding & { nonce: string };

/** Where the person decides, as a waiting answer says it: the page their client showed them, which the same call shows again. */
function onThePage(field: ConfirmField): string {
  return `on the confirmation page their client showed them (the same call with the same ${field} shows it again), or in an MCP client that shows forms`;
}

/**
 * Whether this call asks the person through the confirmation page: the client declares URL elicitation and not form, and the
 * page can be served for the person (a single user's always; a signed-in person's only where the page signs them in).
 */
export function asksOnPage(call: ToolCall, bound: TokenBinding): boolean {
  return call.input.opensUrl && !call.input.canAsk && (bound.person === null || call.ctx.pages.signsIn);
}

/**
 * A client that declares URL elicitation and not form (single user, or a team server whose page signs people in): the call
 * that confirms (person mode's reference, or token mode's token: `field`) asks the client to show the person the confirmation
 * page, with its secret, in URL mode (the client shows it the person, not the model); the retried call reads from the guard's
 * store what the person decided there, waiting a while for it. No path here commits: only the page does.
 */
export async function pageRoundTrip(
  reference: string,
  intent: Intent,
  call: ToolCall,
  field: ConfirmField = "reference",
): Promise<CallToolResult | InputRequiredResult> {
  const { input } = call;
  if (input.state === undefined) return askOnPage(reference, intent, call, field);
  const opened = await retriedQuestion(call, input.state, intent);
  if (!opened.ok) return opened.answer;
  return pageDecision(reference, intent, call, opened.state, field);
}

/** The first leg: the page's link for the person as an input-required URL elicitation, unless the dry run expired. */
export async function askOnPage(reference: string, intent: Intent, call: ToolCall, field: ConfirmField): Promise<CallToolResult | InputRequiredResult> {
  const { ctx } = call;
  const standing = await ctx.road.store.lookUpIntent(intent.nonce);
  const expiresAt = standing.outcome === "open" ? SealedIntent.parse(JSON.parse(standing.sealed)).expires_at : 0;
  if (ctx.now().getTime() >= expiresAt) return personStanding(reference, intent, ctx, onThePage(field), field);
  const url = await ctx.pages.personLink(ctx.forPerson(null), { reference, ...intent });
  const title = writeSpecOfTool(intent.tool)?.identity.title ?? intent.tool;
  // Only a token's retry needs the reference sealed (a reference's call carries it): a person-mode state stays the shape every
  // replica of an earlier version opens (a token-mode state, which no earlier version asks, carries it).
  const named = field === "confirmation_token" ? { reference } : {};
  const requestState = sealQuestion(ctx.tokens, { ...intent, question: questionDigest(url), expires_at: expiresAt, ...named });
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
 * The retried leg, its state opened: after an accept (the person agreed to open the page) the person's decision, waited
 * for; a decline or cancel of the link answers at once. Either way from the store, which any replica reads.
 */
export async function pageDecision(reference: string, intent: Intent, call: ToolCall, state: QuestionState, field: ConfirmField): Promise<CallToolResult> {
  if (openedPage(call.input.responses)) await decided(intent, call, state.expires_at);
  // A cancelled call's answer is never sent (the SDK drops it): the store is not read for it.
  call.signal.throwIfAborted();
  return personStanding(reference, intent, call.ctx, onThePage(field), field);
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
  const pollMs = ctx.pages.decisionPollMs ?? POLL_MS;
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
    if ((beat += pollMs) >= PROGRESS_EVERY_MS) {
      beat = 0;
      call.progress("waiting for the person's decision on the confirmation page");
    }
    // A cancel ends the pause at once (the loop then stops).
    await sleep(pollMs, undefined, { signal: call.signal }).catch(() => undefined);
  }
}
