import type { GovernanceRule, RuleMember } from "../schemas/governance.js";

/** "staking-bot (API), dana.approver (person)", or "nobody". */
export function memberNames(members: readonly RuleMember[]): string {
  return members.map((member) => `${member.username} (${member.is_api ? "API" : "person"})`).join(", ") || "nobody";
}

/** Who acts under a rule: "creators: staking-bot (API); approvers: step 1, 1 of staking-bot (API)". */
export function describeRule(rule: GovernanceRule): string {
  const steps = rule.steps.map((step, index) => `step ${index + 1}, ${step.quorum} of ${memberNames(step.approvers)}`).join("; ");
  return `creators: ${memberNames(rule.creators)}; approvers: ${steps || "none (approved at creation)"}`;
}
