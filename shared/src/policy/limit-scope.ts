import type { CurrencyLimits } from "./policy.js";

/** Whose writes a limit adds up: one API operator's, one person's, or everyone's. */
export type LimitScope = { kind: "operator"; operator: string } | { kind: "person"; subject: string } | { kind: "team" };

/** One set of limits of the policy and the writes it adds up. */
export interface LimitSet {
  scope: LimitScope;
  limits: Record<string, CurrencyLimits>;
  /** Where the set is in the policy file, for messages: "limits", "roles[treasury].limits", "team_limits". */
  field: string;
  /** Whose limit it is, for messages: "the local policy's", "role treasury's per-person", "the team's". */
  owner: string;
  /** The prefix of its findings' codes: POLICY_ (the operator's), POLICY_PERSON_, POLICY_TEAM_. */
  code: string;
}

/** A name for the scope, to key or to show. */
export function scopeKey(scope: LimitScope): string {
  return scope.kind === "operator" ? `operator ${scope.operator}` : scope.kind === "person" ? `person ${scope.subject}` : "team";
}
