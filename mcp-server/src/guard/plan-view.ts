import { baseUnit, delimitUntrusted, describePerson, sanitizeUntrustedText, sanitizeUntrustedValue, stringifyJsonExact, type Finding, type PlannedWrite } from "@custody/shared";
import { checkViews, describeChecks } from "../views/check-view.js";
import { workspaceView } from "../views/workspace-view.js";

/**
 * What every answer about a plan carries in structuredContent: the checks that did not pass (those
 * that did are one line of the text), the amounts, fee and balances before and after in both
 * units, the dates, governance, and the request's method and path. Each thing once: the exact
 * body is in the text (requestLine), where the person reads it, as is the prose.
 */
export function planView(plan: PlannedWrite): Record<string, unknown> {
  const governance = plan.governance;
  const attention = plan.checks.filter((check) => check.severity !== "info");
  return {
    reference: plan.correlation_id,
    account: { id: plan.account.id, name: sanitizeUntrustedText(plan.account.name) },
    amounts: plan.amounts,
    fee: plan.fee,
    ...(plan.balances.length === 0 ? {} : { balances: plan.balances }),
    ...(Object.keys(plan.dates).length === 0 ? {} : { dates: plan.dates }),
    ...(attention.length === 0 ? {} : { checks: checkViews(attention) }),
    governance: governance === null ? null : workspaceView({ outcome: governance.outcome, rule: governance.rule, ...(governance.pending_steps.length === 0 ? {} : { pending_steps: governance.pending_steps }) }),
    request: { method: plan.call.method, path: plan.call.path },
    ...(plan.person === null ? {} : { prepared_for: sanitizeUntrustedValue(plan.person) }),
  };
}

/** Who signed in and the write is prepared for, and as which operator ("" for a single user): "Prepared for Alice Martin <alice@…> (subject alice), as operator treasury-bot." */
export function preparedForLine(plan: PlannedWrite): string {
  return plan.person === null ? "" : `Prepared for ${delimitUntrusted("prepared_for", describePerson(plan.person))}, as operator ${plan.operator}.`;
}

function feeLine(plan: PlannedWrite): string {
  const cap = plan.amounts.max_fees;
  const capText = cap === undefined ? "" : `; max_fees ${cap.display} ${cap.unit}${plan.proposed_max_fees === null ? "" : " proposed from it"}`;
  if ("estimated" in plan.fee) return `Fee: ${plan.fee.estimated.display} ${plan.fee.estimated.unit} (${plan.fee.estimated.base_units} ${baseUnit(plan.currency).code}) estimated${capText}.`;
  return `Fee: not known (${sanitizeUntrustedText(plan.fee.unknown)})${capText}.`;
}

function balancesLine(plan: PlannedWrite): string {
  if (plan.balances.length === 0) return "";
  return `Balances: ${plan.balances.map((change) => `${change.name} ${change.before.display} → ${change.after.display} ${change.after.unit}`).join("; ")}.`;
}

function datesLine(plan: PlannedWrite): string {
  const entries = Object.entries(plan.dates);
  return entries.length === 0 ? "" : `Dates: ${entries.map(([name, at]) => `${name} ${at}`).join("; ")} (from the service's clock).`;
}

function checksLines(checks: readonly Finding[]): string {
  const passed = checks.filter((check) => check.severity === "info").map((check) => check.code);
  const attention = describeChecks(checks);
  return [passed.length === 0 ? "" : `Passed: ${passed.join(", ")}.`, attention].filter((line) => line !== "").join("\n");
}

export function governanceLine(plan: PlannedWrite): string {
  return plan.governance === null ? "Governance: not reported by the account; the workspace decides." : `Governance: ${sanitizeUntrustedText(plan.governance.summary)}.`;
}

/** The plan for a model or a person: fee, balances before and after, dates, the checks folded, governance. */
export function planLines(plan: PlannedWrite): string[] {
  return [feeLine(plan), balancesLine(plan), datesLine(plan), checksLines(plan.checks), governanceLine(plan)].filter((line) => line !== "");
}

/** The exact body as the service will receive it (a Solana stake amount is a JSON integer there), delimited: it carries workspace text. */
export function requestLine(plan: PlannedWrite): string {
  return `Request: ${plan.call.method} ${plan.call.path} ${delimitUntrusted("request.body", stringifyJsonExact(sanitizeUntrustedValue(plan.call.body) ?? null))}`;
}
