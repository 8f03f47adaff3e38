import { delimitUntrusted, sanitizeUntrustedText, type Finding } from "@custody/shared";
import { workspaceView } from "./workspace-view.js";

/**
 * Findings as answered: code, severity, message and the facts the rule looked at. A message or a
 * fact may quote workspace text (a rewards destination, an address, a name): both are sanitised.
 */
export function checkViews(findings: readonly Finding[]): Record<string, unknown>[] {
  return findings.map((item) => ({ code: item.code, severity: item.severity, message: sanitizeUntrustedText(item.message), facts: workspaceView(item.facts) }));
}

/** "block SEND_BALANCE: <untrusted ...>...</untrusted>" lines for the text answer, most severe first, info left out. */
export function describeChecks(findings: readonly Finding[]): string {
  const rank = { block: 0, warn: 1, info: 2 } as const;
  return [...findings]
    .filter((item) => item.severity !== "info")
    .sort((a, b) => rank[a.severity] - rank[b.severity])
    .map((item) => `${item.severity} ${item.code}: ${delimitUntrusted(`checks.${item.code}`, item.message)}`)
    .join("\n");
}
