import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ToolCall } from "../server/tool-call.js";
import { recordOperation } from "./audit-trail.js";
import type { TokenBinding } from "../server/confirmation-token.js";
import { stopBeating } from "./question-heartbeat.js";
import { openQuestion, type QuestionState } from "./question-state.js";
import { writeError } from "./write-answers.js";

/**
 * The question a retried call answers (its heartbeat stopped): the state it echoes, if this server
 * sealed it for this intent and it has not expired; otherwise the audited refusal to answer with.
 */
export async function retriedQuestion(
  call: ToolCall,
  wire: string,
  intent: TokenBinding & { nonce: string },
): Promise<{ ok: true; state: QuestionState } | { ok: false; answer: CallToolResult }> {
  stopBeating(call);
  const opened = openQuestion(call.ctx.tokens, wire, intent, call.ctx.now().getTime());
  if (opened.ok) return opened;
  await recordOperation(call, { event: "refused", tool: intent.tool, request: null, error: opened.message, details: { reason: "request_state" } });
  return { ok: false, answer: writeError("refused", opened.message, { reason: "request_state" }) };
}
