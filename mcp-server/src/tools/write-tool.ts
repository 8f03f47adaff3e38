import {
  accountNetwork,
  boundedText,
  confirmationFor,
  formatIssues,
  grantFor,
  INPUT_LIMITS,
  writeIdentity,
  WriteRequest,
  type Account,
  type Consent,
  type Currency,
  type PlannedWrite,
  type WriteKind,
  errorMessage,
} from "@custody/shared";
import { inputRequired, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import { CONFIRM_VIEW_URI } from "../server/confirm-view.js";
import { permissionRefusal } from "./define-tool.js";
import type { AnyTool, ToolDefinition } from "./tool-definition.js";
import type { ToolCall } from "../server/tool-call.js";
import { WRITE_HINTS } from "./tool-hints.js";
import { strictInput } from "./strict-input.js";
import { speaksModernEra } from "../server/protocol-era.js";
import { accountWithCurrency } from "./account-input.js";
import { recordOperation } from "../guard/audit-trail.js";
import type { TokenBinding } from "../server/confirmation-token.js";
import { answeredQuestion, consentFrom, personQuestion } from "../server/elicitation.js";
import { beatWhileAsked, PROGRESS_EVERY_MS } from "../guard/question-heartbeat.js";
import { questionDigest, sealQuestion } from "../guard/question-state.js";
import { retriedQuestion } from "../guard/retried-question.js";
import { personNonce, referenceProblem } from "../guard/person-intent.js";
import { otherArgumentsRefusal, type CalledAccount } from "../guard/person-arguments.js";
import { personStanding } from "../guard/person-standing.js";
import { asksOnPage, pageRoundTrip } from "../guard/person-page-question.js";
import { tokenPageRoundTrip } from "../guard/token-page-question.js";
import { WriteOutput } from "../guard/write-output.js";
import { commitAnswer, dryRunAnswer, prepareAnswer, questionText, writeError, type ConfirmField } from "../guard/write-answers.js";

// Their meaning is in the server instructions, said once rather than in every write tool's schema.
export const ConfirmationTokenInput = boundedText(INPUT_LIMITS.confirmation_token).optional();
export const RepeatOfInput = boundedText(INPUT_LIMITS.repeat_of).optional();
export const ReferenceInput = boundedText(INPUT_LIMITS.reference).optional();

const PERSON_MODE_TOKEN =
  "confirmation_token: this server confirms writes through the person (confirmation: person), never with " +
  "a token; call the tool again with the same arguments and the dry run's reference";
const TOKEN_MODE_REFERENCE =
  "reference: only a server that confirms writes through the person (confirmation: person) takes it; confirm with the dry run's confirmation_token";

/** The account a write names and its currency, resolved before the amounts are converted. */
export interface WriteTarget {
  account: Account;
  currency: Currency;
}

type WriteCandidate = z.input<typeof WriteRequest>;

/**
 * A write tool declares its kind (its name, title and toolset come from the kind's spec in
 * shared), its input, and how that input maps to the kind's request: on an account (its
 * `account` field, whose currency converts the amounts to base units) or on a transaction.
 */
export type WriteToolSpec<Shape extends z.ZodRawShape> = {
  kind: WriteKind;
  description: string;
  /** The tool's own fields; confirmation_token, repeat_of and reference are added. */
  input: Shape;
} & (
  | { on: "account"; toRequest(args: z.output<z.ZodObject<Shape>>, target: WriteTarget): WriteCandidate }
  | { on: "transaction"; toRequest(args: z.output<z.ZodObject<Shape>>): WriteCandidate }
);

type WriteArgs<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>> & { confirmation_token?: string; repeat_of?: string; reference?: string };

/**
 * A guarded write tool, the MCP surface of the write road: without a token it is a dry run
 * (road.prepare: nothing sent; the answer carries a token naming the prepared intent); with the
 * token it confirms. A client that shows forms is first asked the person's question as an
 * input-required result (road.question: nothing used up), and the call that comes back with the
 * answer and the sealed requestState commits (road.commit); a client that shows only links is sent
 * to the confirmation page, where the person decides (tokenPageRoundTrip); a client that shows
 * neither confirms with the token alone.
 * The road decides and audits; this adapter owns the token on the wire, the form and the wording.
 */
export function defineWriteTool<Shape extends z.ZodRawShape>(spec: WriteToolSpec<Shape>): AnyTool {
  const identity = writeIdentity(spec.kind);
  const tool: ToolDefinition = {
    name: identity.tool,
    title: identity.title,
    description: spec.description,
    toolset: identity.toolset,
    input: strictInput(identity.tool, {
      ...spec.input,
      repeat_of: RepeatOfInput,
      confirmation_token: ConfirmationTokenInput,
      reference: ReferenceInput,
    }) as unknown as AnyTool["input"],
    output: WriteOutput,
    annotations: WRITE_HINTS,
    view: CONFIRM_VIEW_URI,
    async handle(rawArgs, call) {
      try {
        return await guardedWrite(spec, tool, rawArgs as WriteArgs<Shape>, call);
      } catch (error) {
        // The road answers every outcome; only a step of this adapter before the road can throw (an audit line that cannot be written, say).
        return writeError("failed", `${errorMessage(error)}. Nothing was sent.`);
      }
    },
  };
  return tool;
}

/** The request the tool's arguments stand for, in base units, and the account it names by the id it resolves to (null: a write on a transaction). */
async function toWriteRequest<Shape extends z.ZodRawShape>(
  spec: WriteToolSpec<Shape>,
  args: z.output<z.ZodObject<Shape>>,
  repeatOf: string | undefined,
  call: ToolCall,
): Promise<{ request: WriteRequest; account: CalledAccount | null }> {
  const checked = (candidate: object, account: CalledAccount | null) => {
    const parsed = WriteRequest.safeParse(repeatOf === undefined ? candidate : { ...candidate, repeat_of: repeatOf });
    if (!parsed.success) throw new Error(formatIssues(parsed.error));
    return { request: parsed.data, account };
  };
  if (spec.on === "transaction") return checked(spec.toRequest(args), null);
  const resolved = await accountWithCurrency(call, (args as { account: string }).account);
  return checked(spec.toRequest(args, resolved), { id: resolved.account.id, network: accountNetwork(resolved.account) });
}

async function guardedWrite<Shape extends z.ZodRawShape>(
  spec: WriteToolSpec<Shape>,
  tool: AnyTool,
  rawArgs: WriteArgs<Shape>,
  call: ToolCall,
): Promise<CallToolResult | InputRequiredResult> {
  const { ctx } = call;
  const { confirmation_token: token, repeat_of: repeatOf, reference, ...args } = rawArgs;
  const refusal = permissionRefusal(call, tool);
  if (refusal) {
    await recordOperation(call, { event: "refused", tool: tool.name, request: null, error: refusal, details: { reason: "permission" } });
    return writeError("refused", refusal, { reason: "permission" });
  }
  const binding = { tool: tool.name, operator: ctx.operator, person: call.person?.subject ?? null };
  const person = confirmationFor(ctx.policy, grantFor(ctx.policy, call.person)) === "person";
  const misplaced = person ? (token === undefined ? null : PERSON_MODE_TOKEN) : reference === undefined ? null : TOKEN_MODE_REFERENCE;
  if (misplaced !== null) {
    await recordOperation(call, { event: "refused", tool: tool.name, request: null, error: misplaced, details: { reason: "confirmation_mode" } });
    return writeError("refused", `${misplaced}. Nothing was sent.`, { reason: "confirmation_mode" });
  }
  let nonce: string | null = null;
  if (token !== undefined) {
    const opened = ctx.tokens.open(token, binding);
    if (!opened.ok) {
      await recordOperation(call, { event: "refused", tool: tool.name, request: null, error: opened.message, details: { reason: opened.reason } });
      return writeError("refused", `${opened.message}. Nothing was sent.`, { reason: opened.reason });
    }
    nonce = opened.nonce;
  }
  let request: WriteRequest;
  let account: CalledAccount | null;
  try {
    ({ request, account } = await toWriteRequest(spec, args as z.output<z.ZodObject<Shape>>, repeatOf, call));
  } catch (error) {
    const message = errorMessage(error);
    await recordOperation(call, { event: "failed", tool: tool.name, request: null, error: message, details: { stage: "input" } });
    return writeError("failed", `${message}. Nothing was sent.`);
  }
  if (person) return personWrite(tool, { request, account }, reference, binding, call);
  if (nonce === null) {
    // A client that shows views: the token goes to the view only, and the intent keeps its request for the view's app-only tool;
    // one that asks the person only through a page: the intent keeps its request for the page, which its confirmation links.
    const viewed = call.input.showsViews;
    const nonceFor = viewed || asksOnPage(call, binding) ? (ref: string) => personNonce(ctx.tokens, ref, binding) : undefined;
    const prepared = await ctx.road.prepare(request, { actor: { person: call.person }, signal: call.signal, ...(nonceFor === undefined ? {} : { nonceFor }) });
    if (prepared.status !== "prepared") return prepareAnswer(prepared);
    const token = ctx.tokens.issue(prepared.sealed.nonce, binding);
    return dryRunAnswer(tool.name, prepared, viewed ? { view: token } : { token });
  }
  const intent = { ...binding, nonce };
  if (asksOnPage(call, binding)) {
    const paged = await tokenPageRoundTrip({ request, account }, intent, call);
    if (paged !== null) return paged;
  }
  return confirmWrite(tool, request, intent, call, "confirmation_token");
}

/**
 * Person mode: the dry run hands out its reference and nothing that confirms; the same call with
 * the reference asks the person through a client that shows forms, and otherwise answers where the
 * write stands (waiting for the person, or what became of it). No path commits without the person.
 */
async function personWrite(
  tool: AnyTool,
  { request, account }: { request: WriteRequest; account: CalledAccount | null },
  reference: string | undefined,
  binding: TokenBinding,
  call: ToolCall,
): Promise<CallToolResult | InputRequiredResult> {
  const { ctx } = call;
  const nonceFor = (ref: string) => personNonce(ctx.tokens, ref, binding);
  if (reference === undefined) {
    const prepared = await ctx.road.prepare(request, { actor: { person: call.person }, signal: call.signal, nonceFor });
    if (prepared.status !== "prepared") return prepareAnswer(prepared);
    // The view's token: the write tools refuse tokens in person mode, only the view's app-only tool takes it.
    return dryRunAnswer(
      tool.name,
      prepared,
      call.input.showsViews ? { person: true, view: ctx.tokens.issue(prepared.sealed.nonce, binding) } : { person: true },
    );
  }
  const problem = referenceProblem(reference);
  if (problem !== null) {
    await recordOperation(call, { event: "refused", tool: tool.name, request: null, error: problem, details: { reason: "reference" } });
    return writeError("refused", `${problem}. Nothing was sent.`, { reason: "reference" });
  }
  const intent = { ...binding, nonce: nonceFor(reference) };
  if (call.input.canAsk) return confirmWrite(tool, request, intent, call, "reference");
  // The paths below plan nothing again (the page confirms the kept request, the standing only reads the store): held here to it.
  const other = await otherArgumentsRefusal(call, reference, intent, { request, account });
  if (other !== null) return other;
  // A client that can only show a link: the page (with its secret, or on a team server its
  // sign-in) through the client; what the person decides there, read back.
  if (asksOnPage(call, binding)) return pageRoundTrip(reference, intent, call);
  if (call.input.state !== undefined) return confirmWrite(tool, request, intent, call, "reference");
  return personStanding(reference, intent, ctx);
}

function questionFor(tool: AnyTool, plan: PlannedWrite): string {
  return questionText(tool.title ?? tool.name, plan);
}

/**
 * A confirmation: the person's question (nothing used up), or the commit with the answer the
 * retried call brings back under a requestState this server sealed, or with the token alone when
 * the client shows no form.
 */
async function confirmWrite(
  tool: AnyTool,
  request: WriteRequest,
  intent: TokenBinding & { nonce: string },
  call: ToolCall,
  field: ConfirmField,
): Promise<CallToolResult | InputRequiredResult> {
  const { ctx, input } = call;
  const actor = { person: call.person };
  const ask = async (): Promise<CallToolResult | InputRequiredResult> => {
    const asked = await ctx.road.question(request, intent.nonce, { actor, signal: call.signal });
    if (asked.status !== "question") return commitAnswer(asked, ctx.client.serviceNow(), field);
    const message = questionFor(tool, asked.plan);
    const requestState = sealQuestion(ctx.tokens, { ...intent, question: questionDigest(message), expires_at: asked.sealed.expires_at });
    // A 2026-07-28 client holds no call open while the person reads; a 2025-11-25 one does.
    if (!speaksModernEra(call.session)) beatWhileAsked(call, asked.sealed.expires_at - ctx.now().getTime());
    return inputRequired({ inputRequests: personQuestion(message), requestState });
  };
  if (input.canAsk && input.state === undefined) return ask();
  let answer: (plan: PlannedWrite) => Consent = () => ({ answer: "not_asked" });
  if (input.state !== undefined) {
    const opened = await retriedQuestion(call, input.state, intent);
    if (!opened.ok) return opened.answer;
    // A retry that brings no answer to the question (none, another key, not a form's answer) is asked again, as the revision
    // asks of a server (SEP-2322), and uses nothing up: only the person's own yes, no or cancel ends the question.
    if (input.canAsk && !answeredQuestion(input.responses)) return ask();
    const given = consentFrom(input.responses);
    // The answer counts for the question asked: if the checks changed what the person would be told, nothing is sent.
    answer = (plan) =>
      given.answer === "accepted" && questionDigest(questionFor(tool, plan)) !== opened.state.question
        ? { answer: "cancelled", detail: "what would be sent now is not what the person was asked (the checks changed since)" }
        : given;
  }
  const heartbeat = setInterval(() => call.progress("still working: checking, sending or looking the write up"), PROGRESS_EVERY_MS);
  try {
    const result = await ctx.road.commit(request, intent.nonce, {
      actor,
      signal: call.signal,
      progress: call.progress,
      consent: { ask: async (plan) => answer(plan) },
    });
    if (result.status === "submitted") call.written(result.plan.account.id, result.transaction.id);
    return commitAnswer(result, ctx.client.serviceNow(), field);
  } finally {
    clearInterval(heartbeat);
  }
}
