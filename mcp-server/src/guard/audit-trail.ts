import { renderText } from "@custody/shared";
import type { ServerContext } from "../server/server-context.js";
import type { ToolCall } from "../server/tool-call.js";

export const AUDIT_SURFACE = "mcp";

type Operation = Omit<Parameters<ServerContext["road"]["recordOperation"]>[0], "person">;

/**
 * Audits a call that changes something at the service without a dry run (an account sync, an
 * operator's creation or registration), or a refusal before the road, through the write road's
 * store, as the call's operator and person.
 */
export function recordOperation(call: Pick<ToolCall, "ctx" | "person">, entry: Operation): Promise<void> {
  return call.ctx.road.recordOperation({ ...entry, person: call.person });
}

/**
 * The same, of what the service answered it did: an audit record that cannot be written does not make it undone, so its
 * problem is returned (rendered) for the answer to say beside what was done (withAuditWarning), never thrown.
 */
export async function recordDone(call: Pick<ToolCall, "ctx" | "person">, entry: Operation): Promise<string | null> {
  const problem = await call.ctx.road.recordDoneOperation({ ...entry, person: call.person });
  return problem === null ? null : renderText(problem);
}

/** An answer with its audit problem said as a guarded write's is: `warning` in its structure, a WARNING line closing its text. */
export function withAuditWarning<Structured extends object>(
  answer: { structured: Structured; text: string },
  warning: string | null,
): { structured: Structured & { warning?: string }; text: string } {
  return warning === null ? answer : { structured: { ...answer.structured, warning }, text: `${answer.text}\nWARNING: ${warning}` };
}
