import { z } from "zod";
import { buildApproveRequestFor } from "./approve-request.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { checkContractCall } from "../ethereum/contract-call-rules.js";
import type { Account } from "../../schemas/account.js";
import type { Currency } from "../../schemas/currency.js";
import type { Transaction } from "../../schemas/transaction.js";
import type { Policy } from "../../policy/policy.js";
import { approversText, type GovernanceExpectation } from "../../governance/rule-evaluation.js";
import { approvalStanding } from "../../governance/request-standing.js";
import { stepMembersText } from "../../governance/rule-members.js";
import type { RequestStatus } from "../../schemas/request-status.js";
import { describeAmount } from "../../units/describe-amount.js";
import { approvalSubject } from "./approval-subject.js";
import { contractDataOf } from "../../holdings/unfinished-transactions.js";
import { bodyToSend, buildBody, buildFindings } from "../kit/built-body.js";
import { COMMON_FIELDS } from "../kit/request-fields.js";
import { defineWrite, describedDestination, type Destination } from "../kit/write-spec.js";
import { balanceChange } from "../kit/balance-change.js";
import { contractCallDestinations } from "../ethereum/contract-call-destinations.js";
import { networkFee, transactionProbe } from "../kit/network-fee.js";
import { givenTransaction } from "../kit/input-not-found.js";
import { fundsHeld } from "../../holdings/funds-held.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { joinedText, localText } from "../../l10n/translate.js";

export const ApproveTransactionRequest = z.object({ kind: z.literal("approve_transaction"), transaction_id: z.int().positive(), ...COMMON_FIELDS });

/** What the request's steps would look like with this operator's approval added. */
function afterApproval(status: RequestStatus, operator: string): GovernanceExpectation {
  const pending = status.steps
    .map((step) => {
      const approved = new Set(step.approvals.map((approval) => approval.username));
      if (step.approvers.some((member) => member.username === operator)) approved.add(operator);
      const others = step.approvers.filter((member) => !approved.has(member.username));
      return {
        index: step.index,
        missing: Math.max(0, step.quorum - approved.size),
        human_approvers: others.filter((member) => !member.is_api).map((member) => member.username),
        api_approvers: others.filter((member) => member.is_api).map((member) => member.username),
      };
    })
    .filter((step) => step.missing > 0);
  if (pending.length === 0) {
    return {
      outcome: "approved_at_once",
      rule: status.rule,
      summary: localText("this approval completes the quorum: the transaction will be approved, signed and broadcast"),
      pending_steps: [],
      needs_human: false,
    };
  }
  const needsHuman = pending.some((step) => step.missing > step.api_approvers.length);
  const needs = joinedText(pending.map((step) => localText("step {0} needs {1} more from {2}", step.index + 1, step.missing, approversText(step))));
  return {
    outcome: "pending_approval",
    rule: status.rule,
    summary: needsHuman
      ? localText("still pending after this approval: {0} (human approval required)", needs)
      : localText("still pending after this approval: {0}", needs),
    pending_steps: pending,
    needs_human: needsHuman,
  };
}

function approvalChecks(status: RequestStatus, transactionStatus: string, operator: string): Finding[] {
  if (transactionStatus !== "PENDING_APPROVAL") {
    return [
      finding("block", "APPROVE_NOT_PENDING", localText("the transaction is {0}, not PENDING_APPROVAL: there is nothing to approve", transactionStatus), {
        status: transactionStatus,
      }),
    ];
  }
  const standing = approvalStanding(status, operator);
  if (standing === "not_an_approver") {
    const approvers = joinedText(status.steps.map((step) => stepMembersText(step.index, step.quorum, step.approvers)));
    return [
      finding(
        "block",
        "APPROVE_NOT_AN_APPROVER",
        localText("operator {0} is not an approver in any step of the {1} rule of this request (approvers: {2})", operator, status.rule, approvers),
        { operator },
      ),
    ];
  }
  if (standing === "already_approved")
    return [finding("block", "APPROVE_ALREADY_APPROVED", localText("operator {0} has already approved this request", operator), { operator })];
  return [finding("info", "APPROVE_ALLOWED", localText("operator {0} may approve this request", operator), { operator })];
}

/**
 * Where the approved transaction sends its amount: its contract (and a deposit's withdrawal address), validator or
 * recipient as the policy holds it, a new contract, else the account itself (an operation within it).
 */
function approvalDestinations(transaction: Transaction): [Destination, ...Destination[]] {
  const subject = approvalSubject(transaction);
  const released: Destination = { role: "transaction", value: `${transaction.id} (${transaction.type})` };
  if (transaction.type === "DEPLOY_CONTRACT") return [released, describedDestination("into", localText("a new contract (deployment)"))];
  if (subject.contract !== undefined) return [released, ...contractCallDestinations(subject.contract, contractDataOf(transaction) ?? "")];
  if (subject.validator !== undefined) return [released, { role: "validator", value: subject.validator }];
  if (subject.recipient !== undefined) return [released, { role: "recipient", value: subject.recipient }];
  return [released, describedDestination("into", localText("the same account"))];
}

/**
 * A contract call released by an approval meets the rules an ethereum_stake of this operator
 * would. A deployment's bytecode is not read: what it pays is unknown, so one that carries an
 * amount blocks, and one without passes with a warning.
 */
function contractCallChecks(transaction: Transaction, account: Account, policy: Policy, currency: Currency): Finding[] {
  if (transaction.type === "DEPLOY_CONTRACT") {
    const facts = { amount: transaction.amount.toString() };
    if (transaction.amount > 0n) {
      return [
        finding(
          "block",
          "APPROVE_DEPLOY_CONTRACT_PAYS",
          localText(
            "transaction {0} deploys a contract and pays it {1}: the guard cannot read a deployment's bytecode, " +
              "so where that amount can go is unknown (only a deployment with amount 0 can be approved through the " +
              "guard)",
            transaction.id,
            describeAmount(transaction.amount, currency),
          ),
          facts,
        ),
      ];
    }
    return [
      finding(
        "warn",
        "APPROVE_DEPLOY_CONTRACT_UNREAD",
        localText(
          "transaction {0} deploys a contract with amount 0: the guard cannot read its bytecode, so what the new contract does is unchecked",
          transaction.id,
        ),
        facts,
      ),
    ];
  }
  if (transaction.type !== "EXECUTE_CONTRACT") return [];
  return checkContractCall({
    contract: transaction.recipient,
    contractData: contractDataOf(transaction) ?? "",
    whitelist: account.governance_rules?.smart_contract?.whitelist,
    allowedContracts: policy.allowed_contracts,
    accountAddress: account.address,
    allowedRecipients: policy.allowed_recipients,
  });
}

/** Approval of a pending transaction: POST /transactions/{id}/approve with its exact amount and max_fees. */
export const approveTransactionWrite = defineWrite({
  kind: "approve_transaction",
  identity: WRITE_IDENTITIES.approve_transaction,
  schema: ApproveTransactionRequest,
  target: "transaction",
  amountFields: [],
  async plan(ctx, request) {
    const call = { signal: ctx.signal };
    const transaction = await givenTransaction(ctx.client, request.transaction_id, call);
    const [account, currency, status] = await Promise.all([
      ctx.client.getAccount(transaction.account_id, call),
      ctx.client.getCurrency(transaction.currency, call),
      ctx.client.getRequestStatus(transaction.last_request, call),
    ]);
    const governance = afterApproval(status, ctx.operator);
    const built = buildBody(() => buildApproveRequestFor(transaction, currency));
    const fee = await networkFee(ctx, transactionProbe(account, currency, transaction), request.correlation_id !== undefined);
    // A send or contract call leaves the account with its amount and the fee once broadcast; other operations move funds within it.
    const leaves = fundsHeld(transaction) === transaction.amount + transaction.max_fees && transaction.amount > 0n;
    return {
      account,
      currency,
      call: { method: "POST", path: `/transactions/${transaction.id}/approve`, body: built.body },
      checks: [
        ...approvalChecks(status, transaction.status, ctx.operator),
        ...contractCallChecks(transaction, account, ctx.policy, currency),
        ...buildFindings(built),
        finding("info", `GOVERNANCE_${governance.outcome.toUpperCase()}`, governance.summary),
      ],
      amounts: { amount: transaction.amount, max_fees: transaction.max_fees },
      destinations: approvalDestinations(transaction),
      balances: leaves ? [balanceChange("balance", account.balance, -(transaction.amount + ("estimated" in fee ? fee.estimated : transaction.max_fees)))] : [],
      fee,
      governance,
      policy: approvalSubject(transaction),
      proposed_max_fees: null,
      summary: transaction.recipient
        ? localText(
            "approve transaction {0} ({1}) of {2} from {3} to {4}, max fees {5}",
            transaction.id,
            transaction.type,
            describeAmount(transaction.amount, currency),
            account.name,
            transaction.recipient,
            describeAmount(transaction.max_fees, currency),
          )
        : localText(
            "approve transaction {0} ({1}) of {2} from {3}, max fees {4}",
            transaction.id,
            transaction.type,
            describeAmount(transaction.amount, currency),
            account.name,
            describeAmount(transaction.max_fees, currency),
          ),
      transaction,
      send: (client, options) => client.approveTransaction(transaction.id, bodyToSend(built), options),
      lostAnswer: { by: "approval", transaction_id: transaction.id, request_id: transaction.last_request },
    };
  },
});
