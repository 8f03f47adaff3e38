import { renderText, type LocalText } from "../l10n/translate.js";
import type { RefusalReason } from "./road-types.js";

/** Why the road stops a call before anything is sent, as one check finds it. */
export interface Refusal {
  reason: RefusalReason;
  /** In English: what is recorded and what the MCP server answers. */
  message: string;
  /** The same as its template and values, for a surface that shows it in the person's language. */
  text: LocalText;
  /** What the refusal's record and answer add: the transaction a reused intent created. */
  facts?: Record<string, unknown>;
}

/** A refusal told by its text: its English message is the text rendered. */
export function refusal(reason: RefusalReason, text: LocalText, facts?: Record<string, unknown>): Refusal {
  return { reason, message: renderText(text), text, ...(facts === undefined ? {} : { facts }) };
}

/** One named check before sending: null when what it holds still holds. */
export type RoadCheck<Subject> = (subject: Subject) => Refusal | null | Promise<Refusal | null>;

/** The first refusal of the checks, in their order (each runs only when those before it passed), or null. */
export async function firstRefusal<Subject>(checks: readonly RoadCheck<Subject>[], subject: Subject): Promise<Refusal | null> {
  for (const check of checks) {
    const refused = await check(subject);
    if (refused !== null) return refused;
  }
  return null;
}
