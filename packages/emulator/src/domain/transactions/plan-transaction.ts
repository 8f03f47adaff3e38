import {
  addressProblem,
  checkEthereumStake,
  checkPolkadotFixedValues,
  checkSend,
  hasBlocking,
  type PolkadotStakingType,
  type Currency,
  type Finding,
  type TransactionRequest,
} from "@custody/shared";
import type { Tx } from "../../context.js";
import { badRequest, conflict, notFound } from "../domain-error.js";
import { networkFee, type FeeOperation } from "../../networks/fee-schedule.js";
import { ETHEREUM_DEPOSIT_WEI } from "../../networks/network-constants.js";
import { stakingProviderOf } from "../../networks/staking-providers.js";
import type { AccountRow, RuleKind, UserRow } from "../../store/state-types.js";
import { availableBalance } from "../../views/account-view.js";
import { findAccountsByName, requireCurrency, type Reader } from "../lookups.js";
import { parseAmountField } from "./amount-field.js";
import { requireWhitelisted } from "./contract-whitelist.js";
import { requireCreatorIn, requireRule } from "./governance-check.js";
import type { TransactionDraft } from "./transaction-draft.js";

/** The kind of operation a POST /transactions body asks for, from its coin_fields. */
export type RequestKind =
  { kind: "send" } | { kind: "polkadot"; op: PolkadotStakingType; payee: string | null } | { kind: "contract"; contractData: string } | { kind: "deploy" };

export function requestKind(request: Pick<TransactionRequest, "coin_fields">): RequestKind {
  const fields = request.coin_fields;
  if (fields === undefined) return { kind: "send" };
  if ("contract_interaction" in fields) {
    return { kind: "contract", contractData: (fields as { contract_interaction: { contract_data: string } }).contract_interaction.contract_data };
  }
  if ("contract_deployment" in fields) return { kind: "deploy" };
  if (fields.type === "SEND") return { kind: "send" };
  return { kind: "polkadot", op: fields.type, payee: fields.type === "SETPAYEE" ? fields.payee : null };
}

function blockingMessage(findings: readonly Finding[]): string {
  return findings
    .filter((item) => item.severity === "block")
    .map((item) => item.message)
    .join("; ");
}

/** The one account with this name: 404 when there is none, 409 when several share it (a request by name cannot say which). */
export function requireAccountNamed(reader: Reader, name: string): AccountRow {
  const [account, ...others] = findAccountsByName(reader, name);
  if (!account) throw notFound(`account_name: no account is named ${JSON.stringify(name)}`);
  if (others.length > 0) {
    throw conflict(
      "AmbiguousAccountName",
      `account_name: ${others.length + 1} accounts are named ${JSON.stringify(name)} (ids ` +
        `${[account, ...others].map((item) => item.id).join(", ")}); the name does not say which`,
    );
  }
  return account;
}

function requireNetwork(account: AccountRow, network: AccountRow["network"], what: string): void {
  if (account.network !== network) {
    throw badRequest(`coin_fields: ${what} applies to ${network} accounts only; account ${JSON.stringify(account.name)} is a ${account.network} account`);
  }
}

export function feeOperationOf(kind: RequestKind, recipient: string): FeeOperation {
  if (kind.kind === "polkadot") return "polkadot_staking";
  if (kind.kind === "deploy") return "deploy";
  if (kind.kind === "contract") return stakingProviderOf(recipient) ? "stake" : "contract";
  return "send";
}

interface Amounts {
  amount: bigint;
  maxFees: bigint;
  feeDue: bigint;
}

/** The transaction type of the operations that move their amount: a zero amount is refused for them. */
function movingType(kind: RequestKind): string | null {
  if (kind.kind === "send") return "SEND";
  if (kind.kind === "polkadot" && (kind.op === "BONDEXTRA" || kind.op === "UNBOND" || kind.op === "REBOND")) return kind.op;
  return null;
}

function readAmounts(request: TransactionRequest, account: AccountRow, currency: Currency, kind: RequestKind): Amounts {
  const allowNull = kind.kind === "polkadot" && (kind.op === "SETPAYEE" || kind.op === "WITHDRAWUNBONDED");
  const amount = parseAmountField(request.amount, "amount", currency, allowNull) ?? 0n;
  const moving = movingType(kind);
  if (moving !== null && amount === 0n) throw badRequest(`amount: must be greater than 0 base units for a ${moving}, got 0`);
  const maxFees = parseAmountField(request.max_fees, "max_fees", currency, false) ?? 0n;
  const feeDue = networkFee(account.network, request.speed, feeOperationOf(kind, request.recipient));
  if (maxFees < feeDue) {
    throw badRequest(
      `max_fees: ${maxFees} base units does not cover the network fee of ${feeDue} base units at ` +
        `speed ${request.speed}; POST /transactions/fees gives an estimate`,
    );
  }
  return { amount, maxFees, feeDue };
}

function checkRecipient(account: AccountRow, recipient: string): void {
  const problem = addressProblem(account.network, recipient);
  if (problem) throw badRequest(`recipient: ${problem}`);
  if (recipient.toLowerCase() === account.address.toLowerCase()) throw badRequest("recipient: must differ from the sending account's own address");
}

function base(account: AccountRow, request: TransactionRequest, amounts: Amounts): Omit<TransactionDraft, "rule" | "type" | "reserve" | "effect"> {
  return {
    account,
    alsoCreatorIn: [],
    amount: amounts.amount,
    maxFees: amounts.maxFees,
    feeDue: amounts.feeDue,
    recipient: request.recipient,
    speed: request.speed,
    notes: request.note ? [request.note] : [],
    coinFields: (request.coin_fields as Record<string, unknown> | undefined) ?? null,
  };
}

function planSend(account: AccountRow, request: TransactionRequest, amounts: Amounts, now: number): TransactionDraft {
  checkRecipient(account, request.recipient);
  const findings = checkSend({ amount: amounts.amount, maxFees: amounts.maxFees, availableBalance: availableBalance(account, now) });
  if (hasBlocking(findings)) throw badRequest(blockingMessage(findings), "InsufficientFunds");
  return { ...base(account, request, amounts), rule: "transaction", type: "SEND", reserve: amounts.amount + amounts.maxFees, effect: { kind: "send" } };
}

function planPolkadot(account: AccountRow, request: TransactionRequest, amounts: Amounts, kind: Extract<RequestKind, { kind: "polkadot" }>): TransactionDraft {
  return {
    ...base(account, request, amounts),
    rule: "transaction",
    type: kind.op,
    reserve: 0n,
    effect: { kind: "polkadot", op: kind.op, payee: kind.payee },
  };
}

function checkDepositAmount(amount: bigint, provider: string): void {
  if (amount <= 0n || amount % ETHEREUM_DEPOSIT_WEI !== 0n) {
    throw badRequest(
      `amount: a staking deposit (${provider}) must be a positive whole multiple of 32 ETH ` +
        `(${ETHEREUM_DEPOSIT_WEI} wei), 32 ETH per validator, got ${amount} wei`,
    );
  }
}

function planContract(
  account: AccountRow,
  request: TransactionRequest,
  amounts: Amounts,
  currency: Currency,
  contractData: string,
  now: number,
): TransactionDraft {
  checkRecipient(account, request.recipient);
  const provider = stakingProviderOf(request.recipient);
  const available = availableBalance(account, now);
  if (provider) {
    checkDepositAmount(amounts.amount, provider);
    const findings = checkEthereumStake({
      balance: account.free,
      currency,
      recipient: request.recipient,
      contractData,
      amount: amounts.amount,
      maxFees: amounts.maxFees,
      availableBalance: available,
    });
    if (hasBlocking(findings)) throw badRequest(blockingMessage(findings), "EthereumStakingRefused");
  } else if (amounts.amount + amounts.maxFees > available) {
    throw badRequest(`amount ${amounts.amount} + max_fees ${amounts.maxFees} exceeds available_balance ${available} (base units)`, "InsufficientFunds");
  }
  return {
    ...base(account, request, amounts),
    rule: "smart_contract",
    type: "EXECUTE_CONTRACT",
    reserve: amounts.amount + amounts.maxFees,
    effect: { kind: "contract", staking_provider: provider },
  };
}

function planDeploy(account: AccountRow, request: TransactionRequest, amounts: Amounts, now: number): TransactionDraft {
  if (request.recipient !== "") throw badRequest('recipient: must be "" for a contract deployment');
  const available = availableBalance(account, now);
  if (amounts.amount + amounts.maxFees > available) {
    throw badRequest(`amount ${amounts.amount} + max_fees ${amounts.maxFees} exceeds available_balance ${available} (base units)`, "InsufficientFunds");
  }
  return {
    ...base(account, request, amounts),
    rule: "smart_contract",
    type: "DEPLOY_CONTRACT",
    reserve: amounts.amount + amounts.maxFees,
    effect: { kind: "deploy" },
  };
}

/** The rule that governs the operation. */
function ruleOf(kind: RequestKind): RuleKind {
  return kind.kind === "contract" || kind.kind === "deploy" ? "smart_contract" : "transaction";
}

function requireNetworkOf(account: AccountRow, kind: RequestKind): void {
  if (kind.kind === "polkadot") requireNetwork(account, "Polkadot", `type ${kind.op}`);
  if (kind.kind === "contract") requireNetwork(account, "Ethereum", "contract_interaction");
  if (kind.kind === "deploy") requireNetwork(account, "Ethereum", "contract_deployment");
}

/**
 * Checks a POST /transactions body against the account and turns it into a draft. Governance
 * comes first (after the account and the operation's network): an operator the rule does not
 * list gets 403 before any check that would tell it something of the account's funds.
 */
export function planTransaction(tx: Tx, operator: UserRow, request: TransactionRequest): TransactionDraft {
  const account = requireAccountNamed(tx, request.account_name);
  const kind = requestKind(request);
  requireNetworkOf(account, kind);
  requireCreatorIn(account, [ruleOf(kind)], operator);
  if (kind.kind === "contract") requireWhitelisted(account, requireRule(account, "smart_contract"), request.recipient);
  const currency = requireCurrency(tx, account.currency);
  if (kind.kind === "polkadot") {
    const findings = checkPolkadotFixedValues(request);
    if (hasBlocking(findings)) throw badRequest(blockingMessage(findings));
  }
  const amounts = readAmounts(request, account, currency, kind);
  switch (kind.kind) {
    case "send":
      return planSend(account, request, amounts, tx.now);
    case "polkadot":
      return planPolkadot(account, request, amounts, kind);
    case "contract":
      return planContract(account, request, amounts, currency, kind.contractData, tx.now);
    case "deploy":
      return planDeploy(account, request, amounts, tx.now);
  }
}
