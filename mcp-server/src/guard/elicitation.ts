import { sanitizeUntrustedText } from "@custody/shared";
import type { Server } from "@modelcontextprotocol/server";
import { loadSchemaValidator } from "../server/lazy-schema-validator.js";
import { speaksModernEra } from "../server/protocol-era.js";
import { errorMessage } from "../tools/error-message.js";

export type Consent = { answer: "accepted" | "not_asked" } | { answer: "declined" | "cancelled"; detail: string };

/** Whether the client can show a form to the person (form elicitation; 2026-07-28 asks otherwise, in a later stage of issue 19). */
export function canAskPerson(session: Server): boolean {
  return !speaksModernEra(session) && session.getClientCapabilities()?.elicitation?.form !== undefined;
}

const CONFIRM_SCHEMA = {
  type: "object" as const,
  properties: {
    confirm: { type: "boolean" as const, title: "Submit this operation", description: "Tick to send it to the workspace; leave unticked or decline to send nothing." },
  },
  required: ["confirm"],
};

/**
 * Asks the person, through the client, to confirm the summary. A client without form
 * elicitation is not asked (the confirmation token is then the only confirmation); any answer
 * but an accepted form with confirm ticked sends nothing.
 */
export async function askPerson(session: Server, message: string, timeoutMs: number, signal: AbortSignal): Promise<Consent> {
  if (!canAskPerson(session)) return { answer: "not_asked" };
  try {
    // The SDK checks the answer against the form's schema with it.
    await loadSchemaValidator();
    // The last door before the person: whatever the message quotes, no hidden character reaches the form.
    const shown = sanitizeUntrustedText(message, Number.POSITIVE_INFINITY);
    const result = await session.elicitInput({ mode: "form", message: shown, requestedSchema: CONFIRM_SCHEMA }, { timeout: Math.max(1000, timeoutMs), signal });
    if (result.action === "accept") {
      return result.content?.confirm === true ? { answer: "accepted" } : { answer: "declined", detail: "the person accepted the form without ticking confirm" };
    }
    if (result.action === "decline") return { answer: "declined", detail: "the person declined" };
    return { answer: "cancelled", detail: "the person cancelled" };
  } catch (error) {
    return { answer: "cancelled", detail: `the confirmation could not be obtained (${errorMessage(error)})` };
  }
}
