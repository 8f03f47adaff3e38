import type { AccountGovernance, GovernanceRule, RuleMember } from "../schemas/governance.js";
import { canApprove, canCreate, type RuleKind } from "./rule-evaluation.js";

const RULE_KINDS: readonly RuleKind[] = ["transaction", "staking", "smart_contract"];

/** "staking-bot (API), dana.approver (person)", or "nobody". */
export function memberNames(members: readonly RuleMember[]): string {
  return members.map((member) => `${member.username} (${member.is_api ? "API" : "person"})`).join(", ") || "nobody";
}

/** Who acts under a rule: "creators: staking-bot (API); approvers: step 1, 1 of staking-bot (API)". */
export function describeRule(rule: GovernanceRule): string {
  const steps = rule.steps.map((step, index) => `step ${index + 1}, ${step.quorum} of ${memberNames(step.approvers)}`).join("; ");
  return `creators: ${memberNames(rule.creators)}; approvers: ${steps || "none (approved at creation)"}`;
}

/** The account's rules in which the operator is a creator, and those in which it approves. */
export function operatorRoles(governance: AccountGovernance, operator: string): { creates: RuleKind[]; approves: RuleKind[] } {
  const rules = RULE_KINDS.flatMap((kind) => {
    const rule = governance[kind];
    return rule ? [{ kind, rule }] : [];
  });
  return {
    creates: rules.filter(({ rule }) => canCreate(rule, operator)).map(({ kind }) => kind),
    approves: rules.filter(({ rule }) => canApprove(rule, operator)).map(({ kind }) => kind),
  };
}
