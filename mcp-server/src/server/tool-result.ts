import { sanitizeUntrustedText, sanitizeUntrustedValue } from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/server";

/**
 * A result with its structured content and a short text for models that read text only. Every
 * answer passes here: whatever a view missed, no hidden character (shared's hidden-characters)
 * reaches the model, in the text or in the structured content.
 */
export function toolResult(structured: Record<string, unknown>, text: string, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text: sanitizeUntrustedText(text, Number.POSITIVE_INFINITY) }],
    structuredContent: sanitizeUntrustedValue(structured) as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/** A failed call: the message names the field and the rule; nothing in the workspace changed unless it says so. */
export function toolError(message: string, structured: Record<string, unknown> = {}): CallToolResult {
  return toolResult({ ...structured, error: message }, `Error: ${message}`, true);
}
