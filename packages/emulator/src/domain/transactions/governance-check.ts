import { canCreate, type GovernanceRule } from "@custody/shared";
import { forbidden } from "../domain-error.js";
import type { AccountRow, RuleKind, UserRow } from "../../store/state-types.js";

const RULE_NAMES: Record<RuleKind, string> = {
  transaction: "transaction rule",
  staking: "staking rule",
  smart_contract: "smart-contract rule",
};

const MISSING: Record<RuleKind, [string, string]> = {
  transaction: ["NoTransactionRule", "has no transaction rule"],
  staking: ["StakingRuleNotActive", "has no active staking rule: guided Solana staking needs the staking rules activated on the account"],
  smart_contract: ["NoSmartContractRule", "has no smart-contract rule: contract calls and deployments need one"],
};

/** The rule of that kind on the account; 403 when the account has none. */
export function requireRule(account: AccountRow, kind: RuleKind): GovernanceRule {
  const rule = account.governance[kind];
  if (!rule) {
    const [name, reason] = MISSING[kind];
    throw forbidden(name, `account ${JSON.stringify(account.name)} ${reason}`);
  }
  return rule;
}

/** 403 unless the operator is a creator in the rule (Authentication, point 4). */
export function requireCreator(account: AccountRow, kind: RuleKind, operator: UserRow): GovernanceRule {
  const rule = requireRule(account, kind);
  if (!canCreate(rule, operator.username)) {
    throw forbidden(
      "NotInGovernanceRule",
      `operator ${JSON.stringify(operator.username)} is not listed as a creator in the ${RULE_NAMES[kind]} of account ${JSON.stringify(account.name)}`,
    );
  }
  return rule;
}

export function ruleName(kind: RuleKind | "admin"): string {
  return kind === "admin" ? "Admin rule" : RULE_NAMES[kind];
}

/**
 * 403 unless the operator is a creator in every rule the operation needs. Checked before any
 * check of amounts or balances, so an operator who may not act learns nothing of the account's funds.
 */
export function requireCreatorIn(account: AccountRow, kinds: readonly RuleKind[], operator: UserRow): void {
  for (const kind of kinds) requireCreator(account, kind, operator);
}
