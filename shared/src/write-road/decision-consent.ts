import type { Consent, ConsentSurface } from "./road-types.js";

/** What a person chose on a surface that showed them the write (the confirmation page, the MCP App view, VS Code's Waiting for You view). */
export type PersonDecision = "confirm" | "decline";

/** Each surface, and the word before it in "the person declined on the confirmation page". */
const WHERE: Record<Exclude<ConsentSurface, "form">, readonly [string, string]> = {
  page: ["on", "the confirmation page"],
  view: ["on", "the confirmation view"],
  vscode: ["in", "VS Code"],
};

/**
 * The consent a surface's decision gives: a decline, or a yes that counts only for what the surface
 * showed (`shown`, the digest of its question, against `now`, the digest of the question asked with
 * the figures the commit checked): if the checks changed it since, nothing is sent.
 */
export function decisionConsent(decision: PersonDecision, through: Exclude<ConsentSurface, "form">, shown: string, now: string): Consent {
  if (decision === "decline") return { answer: "declined", detail: `the person declined ${WHERE[through].join(" ")}`, through };
  if (shown !== now)
    return { answer: "cancelled", detail: `what would be sent now is not what ${WHERE[through][1]} showed (the checks changed since)`, through };
  return { answer: "accepted", through };
}
