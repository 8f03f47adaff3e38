import { joinedText, localText, renderText, renderValue, type LocalText } from "../l10n/translate.js";
import type { GovernanceRule, RuleMember } from "../schemas/governance.js";

/** "staking-bot (API), dana.approver (person)", or "nobody". */
function memberNamesText(members: readonly RuleMember[]): string | number | LocalText {
  const named = members.map((member) => (member.is_api ? localText("{0} (API)", member.username) : localText("{0} (person)", member.username)));
  return named.length === 0 ? localText("nobody") : joinedText(named, ", ");
}

/** "staking-bot (API), dana.approver (person)", or "nobody", in English. */
export function memberNames(members: readonly RuleMember[]): string {
  return renderValue(memberNamesText(members));
}

/** Who acts under a rule: "creators: staking-bot (API); approvers: step 1, 1 of staking-bot (API)". */
/** "step 1, 2 of staking-bot (API), dana.approver (person)": a step counted from 1, its quorum and who approves in it. */
export function stepMembersText(index: number, quorum: number, approvers: readonly RuleMember[]): LocalText {
  return localText("step {0}, {1} of {2}", index + 1, quorum, memberNamesText(approvers));
}

export function ruleText(rule: GovernanceRule): LocalText {
  const steps = rule.steps.map((step, index) => stepMembersText(index, step.quorum, step.approvers));
  const approvers = steps.length === 0 ? localText("none (approved at creation)") : joinedText(steps);
  return localText("creators: {0}; approvers: {1}", memberNamesText(rule.creators), approvers);
}

/** The same, in English (the MCP server's answers). */
export function describeRule(rule: GovernanceRule): string {
  return renderText(ruleText(rule));
}
