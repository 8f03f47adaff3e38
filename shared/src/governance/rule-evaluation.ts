import type { AccountGovernance, GovernanceRule, RuleMember } from "../schemas/governance.js";
import { joinedText, localText, type LocalText } from "../l10n/translate.js";
import { describeRule } from "./rule-members.js";

export type RuleKind = "transaction" | "staking" | "smart_contract";

const RULE_KINDS: readonly RuleKind[] = ["transaction", "staking", "smart_contract"];

export interface StepProgress {
  index: number;
  quorum: number;
  approvers: RuleMember[];
  approved_by: string[];
  is_complete: boolean;
}

export interface RuleProgress {
  steps: StepProgress[];
  is_satisfied: boolean;
}

/** May this user create requests under the rule? */
export function canCreate(rule: GovernanceRule, username: string): boolean {
  return rule.creators.some((member) => member.username === username);
}

/** May this user approve requests under the rule (is it listed in any step)? */
export function canApprove(rule: GovernanceRule, username: string): boolean {
  return rule.steps.some((step) => step.approvers.some((member) => member.username === username));
}

/**
 * Progress of a request under a rule, given who has approved it (the creator counts as
 * an approver from creation). An approval counts in every step that lists the approver.
 */
export function evaluateRule(rule: GovernanceRule, approvedBy: readonly string[]): RuleProgress {
  const approvals = new Set(approvedBy);
  const steps = rule.steps.map((step, index) => {
    const approved = step.approvers.filter((member) => approvals.has(member.username)).map((member) => member.username);
    return { index, quorum: step.quorum, approvers: step.approvers, approved_by: approved, is_complete: approved.length >= step.quorum };
  });
  return { steps, is_satisfied: steps.every((step) => step.is_complete) };
}

/** The rule that governs an operation: staking for guided Solana staking, smart_contract for contract calls. */
export function ruleFor(governance: AccountGovernance, kind: RuleKind): GovernanceRule | null {
  return governance[kind];
}

export type GovernanceOutcome = "approved_at_once" | "pending_approval" | "not_allowed";

export interface GovernanceExpectation {
  outcome: GovernanceOutcome;
  /** The rule that governs the request; "admin" is the workspace Admin rule of operator registrations. */
  rule: RuleKind | "admin";
  /** What is expected, for a person: rendered in English by the MCP server, in the window's language by the extension. */
  summary: LocalText;
  /** Steps still short of their quorum after the creator's own approval. */
  pending_steps: { index: number; missing: number; human_approvers: string[]; api_approvers: string[] }[];
  needs_human: boolean;
}

/** Who can still approve a step, by name; "nobody else" when none. */
export function approversText(step: { api_approvers: readonly string[]; human_approvers: readonly string[] }): string | LocalText {
  const names = [...step.api_approvers, ...step.human_approvers].join(", ");
  return names === "" ? localText("nobody else") : names;
}

/** What governance is expected to do with a request this operator creates under this rule. */
export function expectGovernance(rule: GovernanceRule | null, kind: RuleKind, creator: string): GovernanceExpectation {
  if (!rule) {
    return {
      outcome: "not_allowed",
      rule: kind,
      summary: localText("the account has no {0} rule, so no request of this kind can be created", kind),
      pending_steps: [],
      needs_human: false,
    };
  }
  if (!canCreate(rule, creator)) {
    return {
      outcome: "not_allowed",
      rule: kind,
      summary: localText("operator {0} is not a creator in the account's {1} rule ({2})", creator, kind, describeRule(rule)),
      pending_steps: [],
      needs_human: false,
    };
  }
  const progress = evaluateRule(rule, [creator]);
  const pending = progress.steps
    .filter((step) => !step.is_complete)
    .map((step) => {
      const others = step.approvers.filter((member) => member.username !== creator);
      return {
        index: step.index,
        missing: step.quorum - step.approved_by.length,
        human_approvers: others.filter((member) => !member.is_api).map((member) => member.username),
        api_approvers: others.filter((member) => member.is_api).map((member) => member.username),
      };
    });
  if (pending.length === 0) {
    return {
      outcome: "approved_at_once",
      rule: kind,
      summary: localText("approved at once: the rule is satisfied by the creating operator alone"),
      pending_steps: [],
      needs_human: false,
    };
  }
  const needsHuman = pending.some((step) => step.missing > step.api_approvers.length);
  const waiting = joinedText(
    pending.map((step) => localText("step {0} needs {1} more approval(s) from {2}", step.index + 1, step.missing, approversText(step))),
  );
  return {
    outcome: "pending_approval",
    rule: kind,
    summary: needsHuman
      ? localText("pending approval: {0} (human approval required)", waiting)
      : localText("pending approval: {0} (other API operators can approve)", waiting),
    pending_steps: pending,
    needs_human: needsHuman,
  };
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
