import { sanitizeUntrustedText } from "@custody/shared";
import type { GetPromptResult } from "@modelcontextprotocol/server";

/** A prompt as one user message; the arguments it quotes have their hidden characters shown. */
export function userPrompt(description: string, text: string): GetPromptResult {
  return { description, messages: [{ role: "user", content: { type: "text", text: sanitizeUntrustedText(text, Number.POSITIVE_INFINITY) } }] };
}
