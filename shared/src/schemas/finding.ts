import { z } from "zod";

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

/** Builds a finding; fact values are rendered as strings (bigints as decimal digits). */
export function finding(severity: FindingSeverity, code: string, message: string, facts: Readonly<Record<string, FactValue>> = {}): Finding {
  const rendered: Record<string, string> = {};
  for (const [key, value] of Object.entries(facts)) rendered[key] = String(value);
  return Finding.parse({ code, severity, message, facts: rendered });
}

/** True when any finding must stop the operation. */
export function hasBlocking(findings: readonly Finding[]): boolean {
  return findings.some((item) => item.severity === "block");
}
