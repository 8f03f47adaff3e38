import { z } from "zod";

/** A member of a governance rule step: an API operator or a human user of the workspace. */
export const RuleMember = z.looseObject({
  username: z.string().min(1),
  is_api: z.boolean(),
});
export type RuleMember = z.infer<typeof RuleMember>;

export const RuleStep = z.looseObject({
  quorum: z.int().positive(),
  approvers: z.array(RuleMember).min(1),
});
export type RuleStep = z.infer<typeof RuleStep>;

/**
 * A governance rule: who may create requests, and the approval steps in order.
 * The creator's own creation counts as their approval in the steps that list them.
 */
export const GovernanceRule = z.looseObject({
  creators: z.array(RuleMember),
  steps: z.array(RuleStep),
});
export type GovernanceRule = z.infer<typeof GovernanceRule>;

export const SmartContractRule = GovernanceRule.extend({
  whitelist: z.array(z.string()),
});
export type SmartContractRule = z.infer<typeof SmartContractRule>;

/**
 * The account's rules as the emulator reports them on the account record (`governance_rules`):
 * the transaction rule, the staking rule when guided staking is active, the smart-contract rule.
 */
export const AccountGovernance = z.looseObject({
  transaction: GovernanceRule,
  staking: GovernanceRule.nullable(),
  smart_contract: SmartContractRule.nullable(),
});
export type AccountGovernance = z.infer<typeof AccountGovernance>;
