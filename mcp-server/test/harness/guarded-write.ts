import type { Client } from "@modelcontextprotocol/client";
import { parseJsonExact } from "@custody/shared";
import { expect } from "vitest";
import { call } from "./mcp-harness.js";

/** Dry run then confirm with the token; asserts the dry run passed and returns the confirmation. */
export async function dryRunAndConfirm(client: Client, tool: string, args: Record<string, unknown>) {
  const dry = await call(client, tool, args);
  expect(dry.structured.status, `${tool} dry run: ${dry.text}`).toBe("dry_run");
  const confirmed = await call(client, tool, { ...args, confirmation_token: dry.token });
  return { dry, confirmed };
}

/** The codes of the blocking checks of an answer. */
export function blockingCodes(structured: Record<string, unknown>): string[] {
  return ((structured.checks ?? []) as { code: string; severity: string }[]).filter((check) => check.severity === "block").map((check) => check.code);
}

/**
 * The exact request an answer shows: method and path from structuredContent, the body as the text
 * gives it (once, delimited, as the service will receive it: a Solana stake amount is a number).
 */
export function requestOf(answer: { structured: Record<string, unknown>; text: string }): { method: string; path: string; body: unknown } {
  const request = answer.structured.request as { method: string; path: string };
  const shown = /<untrusted field="request\.body">([\s\S]*?)<\/untrusted>/.exec(answer.text)?.[1];
  if (shown === undefined) throw new Error(`the answer shows no request body: ${answer.text}`);
  return { ...request, body: parseJsonExact(shown) };
}

/** The codes of the checks that passed, folded into one line of the text. */
export function passedCodes(answer: { text: string }): string[] {
  return (/^Passed: (.*)\.$/m.exec(answer.text)?.[1] ?? "").split(", ").filter((code) => code !== "");
}
