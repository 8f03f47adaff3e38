import { sanitizeUntrustedText, type Consent } from "@custody/shared";
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequest,
  type ServerContext as McpRequestContext,
  type Server,
} from "@modelcontextprotocol/server";
import { showsViews } from "./confirm-view.js";
import { speaksModernEra } from "./protocol-era.js";

/** The key of the person's answer among the input-required requests and the retried call's responses. */
export const CONFIRM_KEY = "confirm";

const CONFIRM_SCHEMA = {
  type: "object" as const,
  properties: {
    confirm: {
      type: "boolean" as const,
      title: "Submit this operation",
      description: "Tick to send it to the workspace; leave unticked or decline to send nothing.",
    },
  },
  required: ["confirm"],
};

/** What a call carries for asking the person: whether the client shows forms, and what a retried call brings back. */
export interface PersonInput {
  /** The client declared form elicitation (on 2025-11-25 at initialize, on 2026-07-28 in the request's _meta). */
  canAsk: boolean;
  /** The client declared URL elicitation: it can show the person a page's link (never to the model). */
  opensUrl: boolean;
  /** The client declared the MCP Apps extension: it renders a write's confirmation view for the person (app-view/confirm-view.ts). */
  showsViews: boolean;
  /** The retried call's answers, keyed as asked (untrusted: read through consentFrom). */
  responses: Record<string, unknown> | undefined;
  /** The requestState the retried call echoes (untrusted: opened with openQuestion). */
  state: string | undefined;
}

/** Whether declared capabilities include form elicitation (a bare `elicitation: {}` is form, as before modes). */
function declaresForm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** What the client declared: on 2025-11-25 at initialize, on 2026-07-28 in each request's _meta. */
export function declaredCapabilities(session: Server, request: McpRequestContext): ClientCapabilities | undefined {
  return speaksModernEra(session)
    ? (request.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY]
    : session.getClientCapabilities();
}

/** The person's side of one tools/call, on either generation. */
export function personInput(session: Server, request: McpRequestContext): PersonInput {
  const declared = declaredCapabilities(session, request);
  const state = request.mcpReq.requestState();
  return {
    canAsk: declaresForm(declared),
    opensUrl: declared?.elicitation?.url !== undefined,
    showsViews: showsViews(declared),
    responses: request.mcpReq.inputResponses,
    state: typeof state === "string" ? state : undefined,
  };
}

/**
 * The question as an embedded form request: a 2026-07-28 client answers it and retries the call;
 * on a 2025-11-25 session the SDK asks through elicitation/create and calls the tool again. Whatever
 * the message quotes, no hidden character reaches the form.
 */
export function personQuestion(message: string): Record<string, InputRequest> {
  return { [CONFIRM_KEY]: inputRequired.elicit({ mode: "form", message, requestedSchema: CONFIRM_SCHEMA }) };
}

/** The question as an embedded URL elicitation: the client shows the person the page (with its secret) and calls again. */
export function pageQuestion(message: string, url: string): Record<string, InputRequest> {
  return { [CONFIRM_KEY]: inputRequired.elicitUrl({ message, url }) };
}

/** Whether the person agreed to open the page (a URL elicitation's accept); what they decided there is the store's to say. */
export function openedPage(responses: Record<string, unknown> | undefined): boolean {
  const answer = inputResponse(responses, CONFIRM_KEY);
  return answer.kind === "elicit" && answer.action === "accept";
}

/** The text the person is shown: sanitised once, and what the question's digest covers. */
export function shownQuestion(message: string): string {
  return sanitizeUntrustedText(message, Number.POSITIVE_INFINITY);
}

/** Whether a retried call brings an answer (accept, decline or cancel) to the person's question. */
export function answeredQuestion(responses: Record<string, unknown> | undefined): boolean {
  return inputResponse(responses, CONFIRM_KEY).kind === "elicit";
}

/** The person's answer in a retried call: only an accepted form with confirm ticked sends; no answer at all is a cancel. */
export function consentFrom(responses: Record<string, unknown> | undefined): Consent {
  const answer = inputResponse(responses, CONFIRM_KEY);
  if (answer.kind !== "elicit") return { answer: "cancelled", detail: "the person's answer did not come back with the confirmation" };
  if (answer.action === "accept") {
    return answer.content?.confirm === true ? { answer: "accepted" } : { answer: "declined", detail: "the person accepted the form without ticking confirm" };
  }
  if (answer.action === "decline") return { answer: "declined", detail: "the person declined" };
  return { answer: "cancelled", detail: "the person cancelled" };
}
