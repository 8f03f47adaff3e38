import { delimitUntrusted, describeCandidates, sanitizeUntrustedText, sanitizeUntrustedValue, stringifyJsonExact, type CommitResult, type PlannedWrite, type PrepareResult } from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { checkViews, describeChecks } from "../views/check-view.js";
import { transactionLine, transactionView } from "../views/transaction-view.js";
import { workspaceView } from "../views/workspace-view.js";
import { toolResult } from "../tools/tool-result.js";
import type { WriteStatus } from "./write-output.js";

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

export function writeError(status: WriteStatus, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return toolResult({ status, ...extra, error: message }, `${status.toUpperCase()}: ${message}`, true);
}

export function dryRunAnswer(tool: string, prepared: Extract<PrepareResult, { status: "prepared" }>, token: string): CallToolResult {
  const plan = prepared.plan;
  const issued = { token, expiresAt: new Date(prepared.sealed.expires_at) };
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

/** A dry run that did not prepare an intent: blocked by a check, refused, or not plannable. Nothing was sent. */
export function prepareAnswer(result: Exclude<PrepareResult, { status: "prepared" }>): CallToolResult {
  if (result.status === "blocked") return blockedAnswer(result.plan, "dry run");
  if (result.status === "refused") return writeError("refused", `${result.message}. Nothing was sent.`, { reason: result.reason });
  return writeError("failed", `${result.message}. Nothing was sent.`);
}

const STAGE_NAMES = { dry_run: "dry run", confirm: "re-check on fresh data", send_check: "last check before sending", reserve: "reservation" } as const;

/** What became of a confirmation: the road's outcome in the MCP answer's words. */
export function commitAnswer(result: CommitResult): CallToolResult {
  switch (result.status) {
    case "refused":
      return writeError("refused", `confirmation_token: ${result.message}`, {
        reason: result.reason,
        ...(result.plan ? planView(result.plan) : {}),
        ...(result.transaction_id != null ? { transaction_id: result.transaction_id } : {}),
      });
    case "blocked":
      return blockedAnswer(result.plan, STAGE_NAMES[result.stage]);
    case "declined":
      return declinedAnswer(result.plan, result.detail);
    case "failed":
      return writeError("failed", `${result.message}. Nothing was sent.`, result.plan ? planView(result.plan) : {});
    case "rejected":
      return writeError("failed", `the service refused the write: it was not applied (${result.message})`, { ...planView(result.plan), ...auditWarning(result.audit_problem) });
    case "submitted": {
      const transaction = result.transaction;
      const found = result.looked_up ? " The service's answer was lost; the transaction was found by its reference and was not sent again." : "";
      return toolResult(
        { status: "submitted", ...planView(result.plan), transaction: transactionView(transaction, result.plan.currency), ...auditWarning(result.audit_problem) },
        lines(`SUBMITTED: ${transactionLine(transaction, result.plan.currency)}.${found}`, governanceLine(result.plan), warningLine(result.audit_problem)),
      );
    }
    case "uncertain":
      return toolResult(
        {
          status: "uncertain",
          ...planView(result.plan),
          candidates: result.candidates.map((candidate) => ({ id: candidate.id, differences: candidate.differences })),
          ...auditWarning(result.audit_problem),
          error: result.message,
        },
        lines(
          `UNCERTAIN: ${result.message}`,
          result.candidates.length === 0 ? "" : `Candidates: ${describeCandidates(result.candidates)}`,
          warningLine(result.audit_problem),
        ),
        true,
      );
  }
}

function auditWarning(problem: string | null): Record<string, unknown> {
  return problem === null ? {} : { warning: problem };
}

function warningLine(problem: string | null): string {
  return problem === null ? "" : `WARNING: ${problem}`;
}

/** The confirmation a person sees in the client's form: plain text, workspace text sanitised. */
export function personMessage(title: string, plan: PlannedWrite): string {
  const warnings = plan.checks.filter((check) => check.severity === "warn").map((check) => `Warning: ${check.message}`);
  return lines(
    repeatLine(plan),
    `${title} as operator ${plan.operator}:`,
    sanitizeUntrustedText(plan.summary),
    amountsLine(plan),
    ...warnings.map((warning) => sanitizeUntrustedText(warning)),
    governanceLine(plan),
    "Submit it?",
  );
}

/** First in what the person confirms: a write that repeats an earlier identical one says so, naming it. */
export function repeatLine(plan: PlannedWrite): string {
  const acknowledged = plan.checks.find((check) => check.code === "REPEAT_ACKNOWLEDGED");
  return acknowledged === undefined ? "" : `THIS SENDS AGAIN what was already sent: ${sanitizeUntrustedText(acknowledged.message)}.`;
}
