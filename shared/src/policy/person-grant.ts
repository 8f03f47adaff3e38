import type { Person } from "../identity/person.js";
import { localText, renderText, type LocalText } from "../l10n/translate.js";
import { sanitizeUntrustedText } from "../untrusted/untrusted-text.js";
import type { LimitSet } from "./limit-scope.js";
import type { ConfirmationMode, Policy, Role } from "./policy.js";

/** What the policy grants one caller: a signed-in person through the role that matches them, or a single user. */
export interface Grant {
  person: Person | null;
  /** The role that applies, or null (a single user, or a policy without roles). */
  role: Role | null;
  /** Why the person may do nothing at all (no role matches them), or null. */
  refusal: string | null;
  /** The same as its template and values, for a surface that shows it in the person's language. */
  refusalText: LocalText | null;
}

function matches(role: Role, person: Person): boolean {
  const { groups = [], roles = [], subjects = [] } = role.when;
  return groups.some((group) => person.groups.includes(group)) || roles.some((name) => person.roles.includes(name)) || subjects.includes(person.subject);
}

/**
 * The grant of a caller: a single user (no person) has the policy as it is; a signed-in person has
 * the first role whose `when` matches them, nothing when none does, and the policy as it is when it
 * defines no roles.
 */
export function grantFor(policy: Policy, person: Person | null): Grant {
  if (person === null || policy.roles === undefined) return { person, role: null, refusal: null, refusalText: null };
  const role = policy.roles.find((candidate) => matches(candidate, person)) ?? null;
  if (role !== null) return { person, role, refusal: null, refusalText: null };
  // The token's own words, shown back: sanitised and cut short.
  const listed = (names: string[]) => sanitizeUntrustedText(names.join(", ") || "none", 300);
  const refusal = localText(
    "no role of the local policy matches you (subject {0}; groups {1}; roles {2}): ask the policy's owner for a role",
    sanitizeUntrustedText(person.subject, 300),
    listed(person.groups),
    listed(person.roles),
  );
  return { person, role: null, refusal: renderText(refusal), refusalText: refusal };
}

/** Where each set of limits is in the policy file, as messages and findings name it: `limits`, `team_limits`, `roles[<name>].limits`. */
export const LIMITS_FIELD = "limits";
export const TEAM_LIMITS_FIELD = "team_limits";
export function roleLimitsField(role: Pick<Role, "name">): string {
  return `roles[${role.name}].limits`;
}

/** The API operator a grant acts as: its role's, else the server's own. */
export function grantOperator(grant: Grant, serverOperator: string): string {
  return grant.role?.operator ?? serverOperator;
}

/**
 * The limits a write by this grant, as this operator, counts against: the operator's (the
 * policy's `limits`), the person's own (their role's `limits`), and the team's (`team_limits`).
 */
export function limitSetsFor(policy: Policy, grant: Grant, operator: string): LimitSet[] {
  const sets: LimitSet[] = [
    { scope: { kind: "operator", operator }, limits: policy.limits, field: LIMITS_FIELD, owner: "the local policy's", code: "POLICY_" },
  ];
  if (grant.person !== null && grant.role !== null) {
    sets.push({
      scope: { kind: "person", subject: grant.person.subject },
      limits: grant.role.limits,
      field: roleLimitsField(grant.role),
      owner: `role ${grant.role.name}'s per-person`,
      code: "POLICY_PERSON_",
    });
  }
  sets.push({ scope: { kind: "team" }, limits: policy.team_limits, field: TEAM_LIMITS_FIELD, owner: "the team's", code: "POLICY_TEAM_" });
  return sets;
}

/** How a write of this grant is confirmed: `person` when the policy or the grant's role requires it. */
export function confirmationFor(policy: Pick<Policy, "confirmation">, grant: Pick<Grant, "role">): ConfirmationMode {
  return policy.confirmation === "person" || grant.role?.confirmation === "person" ? "person" : "token";
}
