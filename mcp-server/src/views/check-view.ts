import type { Finding } from "@custody/shared";

/** Findings as answered: code, severity, message and the facts the rule looked at. */
export function checkViews(findings: readonly Finding[]): Record<string, unknown>[] {
  return findings.map((item) => ({ code: item.code, severity: item.severity, message: item.message, facts: item.facts }));
}

/** "block SEND_BALANCE: ..." lines for the text answer, most severe first, info left out. */
export function describeChecks(findings: readonly Finding[]): string {
  const rank = { block: 0, warn: 1, info: 2 } as const;
  return [...findings]
    .filter((item) => item.severity !== "info")
    .sort((a, b) => rank[a.severity] - rank[b.severity])
    .map((item) => `${item.severity} ${item.code}: ${item.message}`)
    .join("\n");
}
