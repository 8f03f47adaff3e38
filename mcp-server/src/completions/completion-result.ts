import type { CompleteResult } from "@modelcontextprotocol/server";

/** MCP's bound on the values of one completion. */
export const MAX_COMPLETION_VALUES = 100;

/** A value offered, and the texts a typed prefix is matched against (case-insensitively). */
export interface Candidate {
  value: string;
  keys: readonly string[];
}

/**
 * The candidates a typed prefix matches, at most 100, in the order given, each value once, with
 * whether more exist than are sent and their total, known only when the listing they came from
 * was read whole (`more`: it was cut, so what lies past it was never matched).
 */
export function completionOf(candidates: readonly Candidate[], typed: string, more = false): CompleteResult {
  const prefix = typed.toLowerCase();
  const values = [
    ...new Set(candidates.filter((candidate) => candidate.keys.some((key) => key.toLowerCase().startsWith(prefix))).map((candidate) => candidate.value)),
  ];
  const sent = values.slice(0, MAX_COMPLETION_VALUES);
  if (more) return { completion: { values: sent, hasMore: true } };
  return { completion: { values: sent, total: values.length, hasMore: values.length > MAX_COMPLETION_VALUES } };
}

export const NO_COMPLETION: CompleteResult = { completion: { values: [], hasMore: false } };
