import { delimitUntrusted, FindingSeverity, revealLineBreaks, sanitizeUntrustedText, type Finding } from "@custody/shared";
import { z } from "zod";
import { Entity } from "./view-schemas.js";
import { recordView } from "./workspace-view.js";

/** A finding as an answer gives it. */
export const CheckView = z.object({ code: z.string(), severity: FindingSeverity, message: z.string(), facts: Entity });

/** A fact naming an id (`transaction_id`, `earlier_transaction_id`): a number, as ids are everywhere else in structured answers. */
const ID_FACT = /(^|_)id$/;
const ID_DIGITS = /^[0-9]{1,15}$/;

/** A finding's facts, rendered as strings by the rules, with its ids as numbers. */
function factsView(facts: Finding["facts"]): Record<string, unknown> {
  const view = recordView(facts);
  for (const [key, value] of Object.entries(view)) if (ID_FACT.test(key) && typeof value === "string" && ID_DIGITS.test(value)) view[key] = Number(value);
  return view;
}

/**
 * Findings as answered: code, severity, message and the facts the rule looked at. A message or a
 * fact may quote workspace text (a rewards destination, an address, a name): both are sanitised.
 */
export function checkViews(findings: readonly Finding[]): z.infer<typeof CheckView>[] {
  return findings.map((item) => ({ code: item.code, severity: item.severity, message: sanitizeUntrustedText(item.message), facts: factsView(item.facts) }));
}

/**
 * "block SEND_BALANCE: <untrusted ...>...</untrusted>" lines for the text answer, most severe
 * first, info left out; each one line, whatever workspace text its message quotes.
 */
export function describeChecks(findings: readonly Finding[]): string {
  const rank = { block: 0, warn: 1, info: 2 } as const;
  return [...findings]
    .filter((item) => item.severity !== "info")
    .sort((a, b) => rank[a.severity] - rank[b.severity])
    .map((item) => `${item.severity} ${item.code}: ${delimitUntrusted(`checks.${item.code}`, revealLineBreaks(item.message))}`)
    .join("\n");
}
