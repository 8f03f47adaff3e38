import type { Consent, ConsentSurface } from "@custody/shared";

/** What a person chose on a surface that showed them the write (the confirmation page, the MCP App view). */
export type PersonDecision = "confirm" | "decline";

const WHERE: Record<Exclude<ConsentSurface, "form">, string> = { page: "the confirmation page", view: "the confirmation view" };

/**
 * The consent a surface's decision gives: a decline, or a yes that counts only for what the surface
 * showed (`shown`, the digest of its question, against `now`, the digest of the question asked with
 * the figures the commit checked): if the checks changed it since, nothing is sent.
 */
export function decisionConsent(decision: PersonDecision, through: Exclude<ConsentSurface, "form">, shown: string, now: string): Consent {
  if (decision === "decline") return { answer: "declined", detail: `the person declined on ${WHERE[through]}`, through };
  if (shown !== now) return { answer: "cancelled", detail: `what would be sent now is not what ${WHERE[through]} showed (the checks changed since)`, through };
  return { answer: "accepted", through };
}
