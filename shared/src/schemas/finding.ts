import { z } from "zod";
import { english, renderText, type LocalText, type Translate } from "../l10n/translate.js";

export const FindingSeverity = z.enum(["block", "warn", "info"]);
export type FindingSeverity = z.infer<typeof FindingSeverity>;

/**
 * The result of one pre-flight check. Every check a rule performs yields exactly one
 * finding: "block" or "warn" when it fails, "info" (a code ending in _OK) when it passes,
 * so a dry run can list each check. A check whose input was not given is not performed
 * and yields nothing, unless its rule says otherwise.
 */
export const Finding = z.object({
  code: z.string().regex(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/, { message: "must be SCREAMING_SNAKE_CASE, e.g. SEND_BALANCE_OK" }),
  severity: FindingSeverity,
  message: z.string().min(1, { message: "must say what was checked" }),
  /** JSON-safe: bigints as decimal strings. */
  facts: z.record(z.string(), z.string()),
});
export type Finding = z.infer<typeof Finding>;

export type FactValue = bigint | string | number | boolean | null;

/**
 * Each finding's message as its template and values, kept beside the finding and not in it: what
 * is stored, sealed and answered stays `message` alone, in English; where the reader's language is
 * known (the extension) the message is rendered again from its text.
 */
const findingTexts = new WeakMap<Finding, LocalText>();

/**
 * Builds a finding; fact values are rendered as strings (bigints as decimal digits). A message given
 * as a LocalText is rendered in English as `message` and kept for findingText.
 */
export function finding(severity: FindingSeverity, code: string, message: string | LocalText, facts: Readonly<Record<string, FactValue>> = {}): Finding {
  const rendered: Record<string, string> = {};
  for (const [key, value] of Object.entries(facts)) rendered[key] = String(value);
  const made = Finding.parse({ code, severity, message: typeof message === "string" ? message : renderText(message), facts: rendered });
  if (typeof message !== "string") findingTexts.set(made, message);
  return made;
}

/** The template and values the finding's message was made from; undefined for one made from a string, or read back from JSON. */
export function findingText(item: Finding): LocalText | undefined {
  return findingTexts.get(item);
}

/** The finding's message through the translator when its text is kept, else `message` as it was made. */
export function findingMessage(item: Finding, t: Translate = english): string {
  const text = findingTexts.get(item);
  return text === undefined ? item.message : renderText(text, t);
}

/** True when any finding must stop the operation. */
export function hasBlocking(findings: readonly Finding[]): boolean {
  return findings.some((item) => item.severity === "block");
}
