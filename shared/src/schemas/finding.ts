import { z } from "zod";
import { english, renderText, type LocalText, type Translate } from "../l10n/translate.js";
import { LocalTextJson } from "../l10n/local-text-json.js";

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

/** The template and values the finding's message was made from; undefined for one made from a string, or read back from JSON without them. */
export function findingText(item: Finding): LocalText | undefined {
  return findingTexts.get(item);
}

/** The finding's message through the translator when its text is kept, else `message` as it was made. */
export function findingMessage(item: Finding, t: Translate = english): string {
  const text = findingTexts.get(item);
  return text === undefined ? item.message : renderText(text, t);
}

/**
 * A finding as JSON that keeps its text: what a store or an answer would carry for a person who
 * reads it in another process (none does today: the audit log keeps codes, a sealed intent none,
 * and the extension decides a waiting write by planning it again). `text` is optional: JSON written
 * without it reads back as English.
 */
export const FindingJson = Finding.extend({ text: LocalTextJson.optional() });
export type FindingJson = z.infer<typeof FindingJson>;

/** The finding with its text beside `message`, for JSON. */
export function findingJson(item: Finding): FindingJson {
  const text = findingTexts.get(item);
  return text === undefined ? { ...item } : { ...item, text };
}

/**
 * A finding read back from JSON, its text kept for findingMessage when it renders to the English
 * `message` it came with (else the text is not what was recorded, and `message` is shown as it is).
 */
export function readFinding(json: unknown): Finding {
  const { text, ...fields } = FindingJson.parse(json);
  const read = Finding.parse(fields);
  if (text !== undefined && renderText(text) === read.message) findingTexts.set(read, text);
  return read;
}

/** True when any finding must stop the operation. */
export function hasBlocking(findings: readonly Finding[]): boolean {
  return findings.some((item) => item.severity === "block");
}
