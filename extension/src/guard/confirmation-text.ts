import * as vscode from "vscode";
import {
  accountNetwork,
  baseUnit,
  findingMessage,
  oneLineUntrusted,
  renderText,
  sanitizeUntrustedText,
  stringifyJsonExact,
  whatMoves,
  whatMovesLines,
  whatMovesSentence,
  type Finding,
  type PlannedWrite,
} from "@custody/shared";
import { translate } from "../output/translate.js";

/** Amount names in the order a person reads them; any other follows. */
const AMOUNT_ORDER = [
  "amount",
  "max_fees",
  "available_balance",
  "available",
  "balance",
  "bonded",
  "total_unbonding",
  "total_unbonded",
  "total_balance",
  "active_balance",
  "rent_exempt_reserve",
];

/** The label of a request's amount or date: the name shared's writes give it, in the window's language; another name as written, capitalised. */
function amountLabel(name: string): string {
  switch (name) {
    case "amount":
      return vscode.l10n.t("Amount");
    case "max_fees":
      return vscode.l10n.t("Max fees");
    case "available_balance":
      return vscode.l10n.t("Available balance");
    case "available":
      return vscode.l10n.t("Available");
    case "balance":
      return vscode.l10n.t("Balance");
    case "bonded":
      return vscode.l10n.t("Bonded");
    case "total_unbonding":
      return vscode.l10n.t("Total unbonding");
    case "total_unbonded":
      return vscode.l10n.t("Total unbonded");
    case "total_balance":
      return vscode.l10n.t("Total balance");
    case "active_balance":
      return vscode.l10n.t("Active balance");
    case "rent_exempt_reserve":
      return vscode.l10n.t("Rent exempt reserve");
    case "unlocks_at":
      return vscode.l10n.t("Unlocks at");
    case "activates_at":
      return vscode.l10n.t("Activates at");
    case "withdrawable_at":
      return vscode.l10n.t("Withdrawable at");
  }
  const label = name.replace(/_/g, " ");
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The request's amounts besides the one what moves shows (max fees, a rent reserve), the fee cap's meaning and the dates. */
function amountLines(plan: PlannedWrite): string[] {
  const base = baseUnit(plan.currency).code;
  const moved = whatMoves(plan).amount?.name;
  const names = Object.keys(plan.amounts)
    .filter((name) => name !== moved)
    .sort((a, b) => {
      const rank = (name: string) => (AMOUNT_ORDER.includes(name) ? AMOUNT_ORDER.indexOf(name) : AMOUNT_ORDER.length);
      return rank(a) - rank(b);
    });
  const lines = names.map((name) => {
    const amount = plan.amounts[name];
    return amount ? vscode.l10n.t("{0}: {1} {2} ({3} {4})", amountLabel(name), amount.display, amount.unit, amount.base_units, base) : "";
  });
  if (!("max_fees" in plan.amounts)) {
    lines.push(
      plan.kind.startsWith("polkadot_")
        ? vscode.l10n.t("Max fees: 0 (fixed for Polkadot staking requests; the network fee is charged at broadcast)")
        : vscode.l10n.t("Max fees: not part of this request (the network fee is paid by the account at broadcast)"),
    );
  }
  if (plan.proposed_max_fees !== null) lines.push(vscode.l10n.t("(max fees proposed from the service's fee estimate)"));
  for (const [name, at] of Object.entries(plan.dates)) lines.push(vscode.l10n.t("{0}: {1}", amountLabel(name), at));
  return lines.filter((line) => line !== "");
}

function governanceLine(plan: PlannedWrite): string {
  if (!plan.governance) return vscode.l10n.t("Governance: the account does not report its rules; the service decides whether approval is needed");
  const { outcome } = plan.governance;
  const summary = renderText(plan.governance.summary, translate);
  const head =
    outcome === "approved_at_once"
      ? vscode.l10n.t("approved at once")
      : outcome === "pending_approval"
        ? vscode.l10n.t("pending approval")
        : vscode.l10n.t("not allowed");
  const told = summary.startsWith(head) ? summary : vscode.l10n.t("{0}: {1}", head, summary);
  return vscode.l10n.t("Governance ({0} rule): {1}", plan.governance.rule, oneLineUntrusted(told));
}

/** A finding's message, in the window's language when its template is known; as it may quote workspace text, sanitised, on one line. */
function findingLine(item: Finding): string {
  return vscode.l10n.t("{0}: {1}", item.code, oneLineUntrusted(findingMessage(item, translate)));
}

/** The longest detail shown; only what follows what moves is cut to it. */
const DETAIL_BUDGET = 6000;

/**
 * The modal's text. Its message says what moves in one sentence (account name and id, amount in
 * both units, where it goes, fee, balances after), never cut; its detail starts with the same as
 * lines, then the operator, the other amounts, governance, warnings, the summary and the exact
 * request, which are cut to the detail's budget, never what moves.
 */
export function confirmationText(plan: PlannedWrite, baseUrl: string): { message: string; detail: string } {
  const account = plan.account;
  const warnings = plan.checks.filter((item) => item.severity === "warn");
  const repeat = plan.checks.find((item) => item.code === "REPEAT_ACKNOWLEDGED");
  const body = plan.call.body === null || plan.call.body === undefined ? vscode.l10n.t("(no body)") : stringifyJsonExact(plan.call.body);
  const lines = [
    vscode.l10n.t("Operator {0} at {1}", plan.operator, baseUrl),
    vscode.l10n.t("Account network: {0}, currency {1}", accountNetwork(account) ?? account.type, plan.currency.name),
    ...amountLines(plan),
    governanceLine(plan),
    ...(repeat === undefined ? [] : [vscode.l10n.t("Repeat: {0}", findingLine(repeat))]),
    ...(warnings.length > 0 ? [vscode.l10n.t("Warnings:"), ...warnings.map((item) => `  ${findingLine(item)}`)] : []),
    vscode.l10n.t("Summary: {0}", oneLineUntrusted(renderText(plan.summary, translate))),
    vscode.l10n.t("Request: {0} {1}", plan.call.method, plan.call.path),
    body,
    vscode.l10n.t("Reference: {0}", plan.correlation_id),
  ];
  return {
    message: vscode.l10n.t("{0}Send this request? {1}", repeatWarning(repeat), whatMovesSentence(plan, { t: translate })),
    detail: withWhatMoves(plan, lines.join("\n")),
  };
}

/** First in the modal's message: a write that repeats an earlier one says so, and that it may pay twice when the earlier one's outcome is unknown. */
function repeatWarning(repeat: Finding | undefined): string {
  if (repeat === undefined) return "";
  return repeat.facts.may_pay_twice === "true"
    ? vscode.l10n.t("Send this AGAIN? The earlier identical write may already be applied: this MAY PAY TWICE. ")
    : vscode.l10n.t("Send this AGAIN? It repeats a write already sent. ");
}

/** A modal's detail: what moves as lines, never cut, then `rest` sanitised and cut to what is left of the budget. */
export function withWhatMoves(plan: PlannedWrite, rest: string): string {
  const moves = whatMovesLines(plan, undefined, translate).join("\n");
  return `${moves}\n${sanitizeUntrustedText(rest, Math.max(0, DETAIL_BUDGET - moves.length - 1))}`;
}

/** A refusal's detail: what moves, then every blocking check. */
export function blockedText(plan: PlannedWrite): string {
  return withWhatMoves(plan, blockingText(plan.checks));
}

/** Every blocking check, one per line. */
function blockingText(checks: readonly Finding[]): string {
  return checks
    .filter((item) => item.severity === "block")
    .map(findingLine)
    .join("\n");
}
