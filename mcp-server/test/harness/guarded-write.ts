import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { call } from "./mcp-harness.js";

/** Dry run then confirm with the token; asserts the dry run passed and returns the confirmation. */
export async function dryRunAndConfirm(client: Client, tool: string, args: Record<string, unknown>) {
  const dry = await call(client, tool, args);
  expect(dry.structured.status, `${tool} dry run: ${dry.text}`).toBe("dry_run");
  const confirmed = await call(client, tool, { ...args, confirmation_token: dry.structured.confirmation_token });
  return { dry, confirmed };
}

/** The codes of the blocking checks of an answer. */
export function blockingCodes(structured: Record<string, unknown>): string[] {
  return ((structured.checks ?? []) as { code: string; severity: string }[]).filter((check) => check.severity === "block").map((check) => check.code);
}
