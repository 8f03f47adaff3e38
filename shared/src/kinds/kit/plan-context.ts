import type { CustodyClient } from "../../client/custody-client.js";
import type { Account } from "../../schemas/account.js";
import type { Currency } from "../../schemas/currency.js";
import type { Transaction } from "../../schemas/transaction.js";
import type { PersonOnRecord } from "../../identity/person.js";
import type { LimitScope, LimitSet } from "../../policy/limit-scope.js";
import type { Policy, Role } from "../../policy/policy.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { canCreate, expectGovernance, ruleFor, type GovernanceExpectation, type RuleKind } from "../../governance/rule-evaluation.js";
import { describeRule } from "../../governance/rule-members.js";
import { resolveAccount } from "./account-resolution.js";
import type { AccountReference } from "./request-fields.js";
import { localText } from "../../l10n/translate.js";

/** What planning needs from its surface. */
export interface PlanContext {
  client: CustodyClient;
  /** The operator the client calls as (X-Vendor-API-User). */
  operator: string;
  policy: Policy;
  /** The role that applies to the caller (an approval must be within its toolsets too), or null. */
  role: Role | null;
  /** The person the write is prepared for, or null (a single user). */
  person: PersonOnRecord | null;
  /** The limit sets the write counts against (the operator's, the person's, the team's), given the transaction an approval releases. */
  limitSets(transaction: Transaction | undefined): Promise<readonly LimitSet[]>;
  /** What a scope's writes committed in the currency over the last 24 hours (base units). */
  spentLast24h(currency: string, scope: LimitScope): bigint | Promise<bigint>;
  signal?: AbortSignal;
  /** Told the account as soon as it is resolved, so that what needs only the account (the read of its recent transactions) runs beside the rest of the plan. */
  accountResolved?(account: Account): void;
}

export interface AccountAndCurrency {
  account: Account;
  currency: Currency;
}

/** The named account and its currency, fetched fresh. */
export async function loadAccount(ctx: PlanContext, reference: AccountReference): Promise<AccountAndCurrency> {
  const account = await resolveAccount(ctx.client, reference, { signal: ctx.signal });
  ctx.accountResolved?.(account);
  const currency = await ctx.client.getCurrency(account.currency, { signal: ctx.signal });
  return { account, currency };
}

/**
 * Guided Solana staking also needs the operator as a creator in the account's transaction rule
 * (usage rule 1: "added to its transaction and staking rules"): a block when the account reports
 * its rules and the operator is not one, nothing otherwise.
 */
export function stakingTransactionRuleFindings(account: Account, operator: string): Finding[] {
  const rules = account.governance_rules;
  if (!rules) return [];
  const rule = ruleFor(rules, "transaction");
  if (rule !== null && canCreate(rule, operator)) return [];
  const why = rule === null ? "the account has no transaction rule" : `${operator} is not a creator in it (${describeRule(rule)})`;
  return [
    finding(
      "block",
      "GOVERNANCE_NOT_IN_TRANSACTION_RULE",
      localText("guided Solana staking needs operator {0} in the account's transaction rule as well as its staking rule: {1}", operator, why),
      { rule: "transaction", operator },
    ),
  ];
}

/**
 * The governance the account's rules foresee for a request by this operator, with its finding.
 * An account that does not report its rules yields no expectation: the service decides.
 */
export function governanceFor(account: Account, kind: RuleKind, operator: string): { expectation: GovernanceExpectation | null; findings: Finding[] } {
  const rules = account.governance_rules;
  if (!rules) {
    return {
      expectation: null,
      findings: [
        finding("info", "GOVERNANCE_UNKNOWN", localText("the account does not report its governance rules; the service decides whether approval is needed")),
      ],
    };
  }
  const expectation = expectGovernance(ruleFor(rules, kind), kind, operator);
  const code =
    expectation.outcome === "approved_at_once"
      ? "GOVERNANCE_APPROVED_AT_ONCE"
      : expectation.outcome === "pending_approval"
        ? "GOVERNANCE_PENDING_APPROVAL"
        : "GOVERNANCE_NOT_ALLOWED";
  const severity = expectation.outcome === "not_allowed" ? "block" : "info";
  return { expectation, findings: [finding(severity, code, expectation.summary, { rule: kind, operator })] };
}
