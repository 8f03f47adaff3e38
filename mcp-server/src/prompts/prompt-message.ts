import { sanitizeUntrustedText } from "@custody/shared";
import type { GetPromptResult } from "@modelcontextprotocol/server";

/** A prompt as one user message; the arguments it quotes have their hidden characters shown. */
export function userPrompt(description: string, text: string): GetPromptResult {
  return { description, messages: [{ role: "user", content: { type: "text", text: sanitizeUntrustedText(text, Number.POSITIVE_INFINITY) } }] };
}

/**
 * An argument as the prompt repeats it: a JSON string, so that its text (typed, or offered by a
 * completion from the workspace) stays one quoted value and never reads as a step of the prompt.
 */
export function quoted(argument: string): string {
  return JSON.stringify(argument);
}
