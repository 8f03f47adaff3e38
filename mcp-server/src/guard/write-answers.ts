import { delimitUntrusted, sanitizeUntrustedText, sanitizeUntrustedValue, stringifyJsonExact, type PlannedWrite, type WriteOutcome } from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { checkViews, describeChecks } from "../views/check-view.js";
import { transactionLine, transactionView } from "../views/transaction-view.js";
import { workspaceView } from "../views/workspace-view.js";
import { toolResult } from "../tools/tool-result.js";

/** What every answer about a plan shows: the exact request, the checks, both units, governance. */
function planView(plan: PlannedWrite): Record<string, unknown> {
  return {
    summary: sanitizeUntrustedText(plan.summary),
    account: { id: plan.account.id, name: sanitizeUntrustedText(plan.account.name), currency: plan.currency.name },
    request: { method: plan.call.method, path: plan.call.path, body: workspaceView(plan.call.body) },
    amounts: plan.amounts,
    checks: checkViews(plan.checks),
    governance: plan.governance === null ? null : workspaceView(plan.governance),
    reference: plan.correlation_id,
  };
}

function amountsLine(plan: PlannedWrite): string {
  const parts = Object.entries(plan.amounts).map(([field, amount]) => `${field} ${amount.display} ${amount.unit} (${amount.base_units} base units)`);
  return parts.length === 0 ? "" : `Amounts: ${parts.join("; ")}`;
}

function governanceLine(plan: PlannedWrite): string {
  return plan.governance === null ? "Governance: not reported by the account; the workspace decides." : `Governance: ${sanitizeUntrustedText(plan.governance.summary)}`;
}

function lines(...parts: string[]): string {
  return parts.filter((part) => part !== "").join("\n");
}

export function dryRunAnswer(tool: string, plan: PlannedWrite, issued: { token: string; expiresAt: Date }): CallToolResult {
  const warnings = describeChecks(plan.checks);
  const passed = plan.checks.filter((check) => check.severity === "info").length;
  return toolResult(
    { status: "dry_run", ...planView(plan), confirmation_token: issued.token, expires_at: issued.expiresAt.toISOString() },
    lines(
      `DRY RUN, nothing sent. ${delimitUntrusted("summary", plan.summary)}`,
      amountsLine(plan),
      `Checks: ${passed} passed${warnings === "" ? "" : `; attention:\n${warnings}`}`,
      governanceLine(plan),
      // The body carries workspace text (the account's name): delimited like every other piece of it,
      // written as the service will receive it (a Solana stake amount is a JSON integer there).
      `Request: ${plan.call.method} ${plan.call.path} ${delimitUntrusted("request.body", stringifyJsonExact(sanitizeUntrustedValue(plan.call.body) ?? null))}`,
      // The token in the text too: a client may hand the model only the text of an answer.
      `Show this to the person. Only if they agree, submit by calling ${tool} again with the same arguments and confirmation_token "${issued.token}" (valid until ${issued.expiresAt.toISOString()}, once).`,
    ),
  );
}

export function blockedAnswer(plan: PlannedWrite, stage: string): CallToolResult {
  return toolResult(
    { status: "blocked", ...planView(plan), error: `blocked by the ${stage} checks` },
    lines(`BLOCKED (${stage}), nothing sent. ${delimitUntrusted("summary", plan.summary)}`, describeChecks(plan.checks.filter((check) => check.severity === "block"))),
    true,
  );
}

export function declinedAnswer(plan: PlannedWrite, detail: string): CallToolResult {
  return toolResult(
    { status: "declined", ...planView(plan), error: `${detail}: nothing was sent` },
    `DECLINED: ${detail}; nothing was sent. Do not retry unless the person asks again.`,
    true,
  );
}

/** The outcome of the one POST; `auditProblem` says the audit log missed it. */
export function outcomeAnswer(plan: PlannedWrite, outcome: WriteOutcome, auditProblem: string | null): CallToolResult {
  const warning = auditProblem === null ? {} : { warning: auditProblem };
  const warningLine = auditProblem === null ? "" : `WARNING: ${auditProblem}`;
  if (outcome.status === "submitted") {
    const transaction = outcome.transaction;
    const found = outcome.looked_up ? " The service's answer was lost; the transaction was found by its reference and was not sent again." : "";
    return toolResult(
      { status: "submitted", ...planView(plan), transaction: transactionView(transaction, plan.currency), ...warning },
      lines(`SUBMITTED: ${transactionLine(transaction, plan.currency)}.${found}`, governanceLine(plan), warningLine),
    );
  }
  const extra = outcome.status === "uncertain" ? { candidates: outcome.candidates } : {};
  return toolResult({ status: outcome.status, ...planView(plan), ...extra, ...warning, error: outcome.message }, lines(`${outcome.status.toUpperCase()}: ${outcome.message}`, warningLine), true);
}

/** The confirmation a person sees in the client's form: plain text, workspace text sanitised. */
export function personMessage(title: string, plan: PlannedWrite): string {
  const warnings = plan.checks.filter((check) => check.severity === "warn").map((check) => `Warning: ${check.message}`);
  return lines(
    `${title} as operator ${plan.operator}:`,
    sanitizeUntrustedText(plan.summary),
    amountsLine(plan),
    ...warnings.map((warning) => sanitizeUntrustedText(warning)),
    governanceLine(plan),
    "Submit it?",
  );
}
