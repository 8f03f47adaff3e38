import type { Network } from "../schemas/account.js";
import { sameAddress } from "../schemas/address-format.js";
import type { Currency } from "../schemas/currency.js";
import { finding, type Finding } from "../schemas/finding.js";
import { checkDailyLimit } from "./daily-limit.js";
import type { LimitSet } from "./limit-scope.js";
import type { Policy, Role, Toolset } from "./policy.js";
import { describePolicyAmount, limitInBaseUnits } from "./policy-limit.js";
import { localText } from "../l10n/translate.js";

/** What a write would do, as far as the local policy is concerned. */
export interface PolicySubject {
  currency: Currency;
  /** The account's network: it decides how addresses compare (only Ethereum hex ignores case). */
  network: Network | null;
  /** The base-unit quantity the write moves or commits, fees included (amount plus max_fees); undefined when none applies. */
  amount?: bigint;
  recipient?: string;
  validator?: string;
  contract?: string;
  /**
   * The toolset of the operation the write releases, when it is not the tool's own: an approval
   * releases a send, a stake or a contract call created by someone else.
   */
  toolset?: Toolset;
  /** The limit sets the write counts against, each with what its scope's writes already committed in this currency in the last 24 hours. */
  limits: ReadonlyArray<{ set: LimitSet; spentLast24h: bigint }>;
}

function allowList(list: string[] | undefined, value: string | undefined, network: Network | null, code: string, what: string): Finding[] {
  if (list === undefined || value === undefined) return [];
  return list.some((entry) => sameAddress(network, entry, value))
    ? [finding("info", `${code}_OK`, localText("{0} {1} is on the local policy's allowed list", what, value), { [what]: value })]
    : [
        finding("block", `${code}_NOT_ALLOWED`, localText("{0} {1} is not on the local policy's allowed list ({2} entries)", what, value, list.length), {
          [what]: value,
        }),
      ];
}

function toolsetCheck(toolsets: readonly Toolset[] | undefined, toolset: Toolset | undefined, whose: string): Finding[] {
  if (toolsets === undefined || toolset === undefined) return [];
  return toolsets.includes(toolset)
    ? [finding("info", "POLICY_TOOLSET_OK", localText("{0} enables the toolset {1} of the operation", whose, toolset), { toolset })]
    : [
        finding("block", "POLICY_TOOLSET_NOT_ENABLED", localText("the operation belongs to the toolset {0}, which {1} does not enable", toolset, whose), {
          toolset,
        }),
      ];
}

function limitFindings(set: LimitSet, spentLast24h: bigint, subject: PolicySubject): Finding[] {
  const findings: Finding[] = [];
  const limits = set.limits[subject.currency.name];
  if (limits && subject.amount !== undefined) {
    if (limits.max_per_transaction) {
      const max = limitInBaseUnits(limits.max_per_transaction, subject.currency, `${set.field}.${subject.currency.name}.max_per_transaction`);
      if (typeof max !== "bigint") findings.push(max);
      else {
        const facts = { amount: subject.amount, max, scope: set.field };
        const commits = `the write commits ${describePolicyAmount(subject.amount, subject.currency)} (amount plus max fees)`;
        findings.push(
          subject.amount > max
            ? finding(
                "block",
                `${set.code}MAX_PER_TRANSACTION`,
                localText("{0}, above {1} maximum per transaction of {2}", commits, set.owner, describePolicyAmount(max, subject.currency)),
                facts,
              )
            : finding(
                "info",
                `${set.code}MAX_PER_TRANSACTION_OK`,
                localText("{0}, within {1} maximum per transaction of {2}", commits, set.owner, describePolicyAmount(max, subject.currency)),
                facts,
              ),
        );
      }
    }
    const daily = checkDailyLimit(set, subject.currency, subject.amount, spentLast24h);
    if (daily) findings.push(daily);
  }
  const limited = Object.keys(set.limits);
  if (!limits && subject.amount !== undefined && limited.length > 0) {
    // Said aloud: a limit keyed by something other than this currency's identifier applies to nothing.
    findings.push(
      finding(
        "info",
        `${set.code}NO_LIMIT`,
        localText(
          "{0} limits ({1}) are set for {2}, none for {3}: none of them applies to this write (limits are keyed by currency identifier)",
          set.owner,
          set.field,
          limited.join(", "),
          subject.currency.name,
        ),
        {
          currency: subject.currency.name,
        },
      ),
    );
  }
  return findings;
}

/**
 * The local policy's limits and allow-lists for one write. Limits apply to every write that carries
 * an amount, per currency, per transaction and over a rolling 24 hours, in each set the write
 * counts against (the operator's, the person's, the team's).
 */
export function checkPolicy(policy: Policy, subject: PolicySubject, role: Role | null = null): Finding[] {
  const findings = subject.limits.flatMap(({ set, spentLast24h }) => limitFindings(set, spentLast24h, subject));
  findings.push(...toolsetCheck(policy.toolsets, subject.toolset, "the local policy"));
  if (role !== null) findings.push(...toolsetCheck(role.toolsets, subject.toolset, `your role ${role.name}`));
  findings.push(...allowList(policy.allowed_recipients, subject.recipient, subject.network, "POLICY_RECIPIENT", "recipient"));
  findings.push(...allowList(policy.allowed_validators, subject.validator, subject.network, "POLICY_VALIDATOR", "validator"));
  findings.push(...allowList(policy.allowed_contracts, subject.contract, subject.network, "POLICY_CONTRACT", "contract"));
  findings.push(...contractAmongRecipients(policy, subject));
  return findings;
}

/**
 * A contract call pays its contract: allowed_recipients, when set, must name it unless
 * allowed_contracts does (a contract is a recipient the person chose to allow as a contract).
 */
function contractAmongRecipients(policy: Policy, { contract, network }: PolicySubject): Finding[] {
  if (contract === undefined || policy.allowed_recipients === undefined) return [];
  const named = (list: string[] | undefined) => list?.some((entry) => sameAddress(network, entry, contract)) === true;
  if (named(policy.allowed_recipients) || named(policy.allowed_contracts)) return [];
  return [
    finding(
      "block",
      "POLICY_CONTRACT_NOT_AMONG_RECIPIENTS",
      localText(
        "contract {0} is paid by this call but is neither on the local policy's allowed_recipients ({1} entries) nor on its allowed_contracts",
        contract,
        policy.allowed_recipients.length,
      ),
      { contract },
    ),
  ];
}
