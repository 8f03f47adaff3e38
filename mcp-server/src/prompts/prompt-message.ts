import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";

/** A prompt as one user message. */
export function userPrompt(description: string, text: string): GetPromptResult {
  return { description, messages: [{ role: "user", content: { type: "text", text } }] };
}
