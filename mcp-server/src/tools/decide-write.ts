import { decisionConsent, errorMessage, boundedText, INPUT_LIMITS, toolPermission, writeSpecOfTool } from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { recordOperation } from "../guard/audit-trail.js";
import { questionDigest } from "../guard/question-state.js";
import { commitAnswer, questionText, writeError } from "../guard/write-answers.js";
import { WriteOutput } from "../guard/write-output.js";
import { strictInput } from "./strict-input.js";
import type { AnyTool, ToolDefinition } from "./tool-definition.js";
import type { ToolCall } from "../server/tool-call.js";
import { WRITE_HINTS } from "./tool-hints.js";
import { CONFIRM_VIEW_URI, DECIDE_WRITE_TOOL } from "../server/confirm-view.js";

const Input = {
  tool: boundedText(64),
  token: boundedText(INPUT_LIMITS.confirmation_token),
  /** The digest of the question the view showed (its `_meta`): a yes counts only for it. */
  question: boundedText(64),
  decision: z.enum(["confirm", "decline"]),
};
type DecideArgs = z.output<z.ZodObject<typeof Input>>;

const NOTHING_OPEN = "nothing to decide: this write was already confirmed or declined, was replaced by a newer dry run, or expired. Nothing was sent";

/**
 * The app-only tool behind the confirmation view's Confirm and Decline (visibility ["app"]: hosts
 * let only the view call it, never the model). It redeems the dry run the view's token names, with
 * the request the intent kept, once: the person's yes (for the question the view showed) or no.
 */
export const decideWrite: AnyTool = {
  name: DECIDE_WRITE_TOOL,
  title: "Decide a prepared write",
  description: "The confirmation view's Confirm and Decline: sends the dry run the view shows, once, or declines it. Only the view calls it.",
  toolset: "transactions",
  input: strictInput(DECIDE_WRITE_TOOL, Input) as unknown as AnyTool["input"],
  output: WriteOutput,
  annotations: WRITE_HINTS,
  view: CONFIRM_VIEW_URI,
  appOnly: true,
  async handle(args, call) {
    try {
      return await decide(args as DecideArgs, call);
    } catch (error) {
      return writeError("failed", `${errorMessage(error)}. Nothing was sent.`);
    }
  },
} satisfies ToolDefinition;

async function refused(call: ToolCall, tool: string, message: string, reason: string): Promise<CallToolResult> {
  await recordOperation(call, { event: "refused", tool, request: null, error: message, details: { reason, through: "view" } });
  return writeError("refused", `${message}. Nothing was sent.`, { reason });
}

async function decide(args: DecideArgs, call: ToolCall): Promise<CallToolResult> {
  const { ctx } = call;
  const spec = writeSpecOfTool(args.tool);
  if (spec === undefined) return refused(call, DECIDE_WRITE_TOOL, "tool: not a guarded write tool of this server", "tool");
  const { identity } = spec;
  // A client that declared no views has no view to call this from: only its model could.
  if (!call.input.showsViews)
    return refused(call, identity.tool, `${DECIDE_WRITE_TOOL}: only a client that shows this server's views calls it, from the confirmation view`, "view");
  const verdict = toolPermission(ctx.policy, { name: identity.tool, toolset: identity.toolset, readOnly: false }, call.person);
  if (!verdict.allowed) return refused(call, identity.tool, `${identity.tool} refused: ${verdict.reason}`, "permission");
  const opened = ctx.tokens.open(args.token, { tool: identity.tool, operator: ctx.operator, person: call.person?.subject ?? null });
  if (!opened.ok) return refused(call, identity.tool, opened.message, opened.reason);
  const request = await ctx.road.keptRequest(opened.nonce);
  if (request === null) return writeError("refused", NOTHING_OPEN, { reason: "not_open" });
  const actor = { person: call.person };
  const result = await ctx.road.commit(request, opened.nonce, {
    actor,
    signal: call.signal,
    progress: call.progress,
    consent: { ask: async (plan) => decisionConsent(args.decision, "view", args.question, questionDigest(questionText(identity.title, plan))) },
  });
  if (result.status === "submitted") call.written(result.plan.account.id, result.transaction.id);
  return commitAnswer(result, ctx.client.serviceNow(), "confirmation_token");
}
