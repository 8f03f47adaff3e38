import {
  delimitUntrusted,
  describeCandidates,
  describePerson,
  oneLineUntrusted,
  renderText,
  revealLineBreaks,
  whatMovesLines,
  type CommitResult,
  type LocalText,
  type PlannedWrite,
  type PrepareResult,
} from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { describeChecks } from "../views/check-view.js";
import { shownQuestion } from "../server/elicitation.js";
import { VIEW_META_KEY } from "../server/confirm-view.js";
import { exactBody, movesBlock, planLines, planView, preparedForLine, requestLine } from "./plan-view.js";
import { questionDigest } from "./question-state.js";
import { submittedAnswer } from "./submitted-answer.js";
import { tokenSentence } from "./token-text.js";
import { writeResult, type WriteAnswer, type WriteStatus } from "./write-output.js";

/** What a confirmation came with: the token, or in person mode the dry run's reference. */
export type ConfirmField = "confirmation_token" | "reference";

function lines(...parts: string[]): string {
  return parts.filter((part) => part !== "").join("\n");
}

export function writeError(status: WriteStatus, message: string, extra: Omit<WriteAnswer, "status" | "error"> = {}): CallToolResult {
  return writeResult({ status, ...extra, error: message }, `${status.toUpperCase()}: ${message}`, true);
}

/**
 * The plan's own sentence, after what moves: workspace text that may be long and is cut at the display cap,
 * on one line (it quotes the request's recipient or payee, which must not begin a line that reads as a fact).
 */
function summaryLine(plan: PlannedWrite): string {
  return `Summary: ${delimitUntrusted("summary", revealLineBreaks(renderText(plan.summary)))}`;
}

/**
 * How a dry run is confirmed: with the token the text carries (token mode, a client without views),
 * in the client's view only (the token in `_meta`, which goes to the view, never in the text), or in
 * person mode through the person (the view too when the client shows views).
 */
export type DryRunConfirmation = { token: string } | { view: string } | { person: true; view?: string };

/**
 * The dry run: the plan once (what moves says all its summary says), then how it is confirmed: in
 * token mode the token in the text (which every client hands the model) and in `confirmation_token`
 * (for a program or a client that reads only structuredContent), or with a view or in person mode
 * no token in anything the model reads, only the reference the same call comes back with.
 */
export function dryRunAnswer(tool: string, prepared: Extract<PrepareResult, { status: "prepared" }>, confirm: DryRunConfirmation): CallToolResult {
  const plan = prepared.plan;
  const expiresAt = new Date(prepared.sealed.expires_at);
  const closing =
    "token" in confirm
      ? tokenSentence(tool, confirm.token, expiresAt)
      : "person" in confirm
        ? lines(personSentence(tool, plan.correlation_id, expiresAt), "view" in confirm ? VIEW_TOO : "")
        : viewSentence(tool, expiresAt);
  const answer = writeResult(
    {
      status: "dry_run",
      ...planView(plan),
      expires_at: expiresAt.toISOString(),
      ...("token" in confirm ? { confirmation_token: confirm.token } : {}),
    },
    lines(`DRY RUN, nothing sent. ${movesBlock(plan)}`, preparedForLine(plan), ...planLines(plan), requestLine(plan), closing),
  );
  const viewToken = "view" in confirm ? confirm.view : undefined;
  return viewToken === undefined ? answer : { ...answer, _meta: viewMeta(tool, plan, viewToken) };
}

const VIEW_TOO = "They can also confirm or decline it in the confirmation view this client shows with this answer.";

/** A dry run the person confirms in the client's view: the model has nothing to call. */
function viewSentence(tool: string, expiresAt: Date): string {
  return (
    "Show this to the person: they confirm or decline it in the confirmation view this " +
    `client shows with this answer, until ${expiresAt.toISOString()}; nothing is sent ` +
    `unless they confirm there. Do not call ${tool} again for it.`
  );
}

/**
 * What the view is given beside the structured content: the token it confirms with, the exact body, the digest of the
 * question its yes answers, the operator it acts as, whether its max_fees was proposed from the estimate and, for a write sent again on purpose, what the form says of it (the structured content
 * carries a known repeat's finding nowhere: it is no check that needs attention).
 */
function viewMeta(tool: string, plan: PlannedWrite, token: string): Record<string, unknown> {
  const repeat = acknowledgedRepeat(plan);
  return {
    [VIEW_META_KEY]: {
      tool,
      title: plan.identity.title,
      token,
      question: questionDigest(questionText(plan.identity.title, plan)),
      body: exactBody(plan),
      operator: plan.operator,
      ...(plan.proposed_max_fees === null ? {} : { max_fees_proposed: true }),
      ...(repeat === undefined ? {} : { repeat: repeatLine(plan), repeats: oneLineUntrusted(repeat.message) }),
    },
  };
}

/** Person mode's closing sentence: only the person confirms; the model comes back with the reference. */
function personSentence(tool: string, reference: string, expiresAt: Date): string {
  return (
    "Show this to the person: only they can confirm it (this server confirms writes through " +
    `the person, never a token). To submit it once they agree, call ${tool} again with the ` +
    `same arguments and reference "${reference}" (until ${expiresAt.toISOString()}): they are ` +
    "asked in this client, or told where to confirm."
  );
}

/** Blocks that only another operator (or a change of the rule) can lift. */
const GOVERNANCE_BLOCKS = new Set(["GOVERNANCE_NOT_ALLOWED", "GOVERNANCE_NOT_IN_TRANSACTION_RULE", "APPROVE_NOT_AN_APPROVER"]);

export function blockedAnswer(plan: PlannedWrite, stage: string): CallToolResult {
  const blocking = plan.checks.filter((check) => check.severity === "block");
  const actsAs = blocking.some((check) => GOVERNANCE_BLOCKS.has(check.code))
    ? `This server acts as operator ${plan.operator} only: an operator or person the rule names ` +
      `must do it, or an administrator must add ${plan.operator} to the rule.`
    : "";
  return writeResult(
    { status: "blocked", ...planView(plan), operator: plan.operator, error: `blocked by the ${stage} checks` },
    lines(`BLOCKED (${stage}), nothing sent. ${movesBlock(plan)}`, summaryLine(plan), describeChecks(plan.checks), actsAs),
    true,
  );
}

export function declinedAnswer(plan: PlannedWrite, detail: string): CallToolResult {
  return writeResult(
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

/** What became of a confirmation: the road's outcome in the MCP answer's words; `now` is the service's; a refusal names the field that confirmed. */
export function commitAnswer(result: CommitResult, now: Date, field: ConfirmField = "confirmation_token"): CallToolResult {
  switch (result.status) {
    case "refused":
      return writeError("refused", `${field}: ${result.message}`, {
        reason: result.reason,
        ...(result.plan ? { reference: result.plan.correlation_id } : {}),
        ...(result.transaction_id != null ? { transaction_id: result.transaction_id } : {}),
      });
    case "blocked":
      return blockedAnswer(result.plan, STAGE_NAMES[result.stage]);
    case "declined":
      return declinedAnswer(result.plan, result.detail);
    case "failed":
      return writeError("failed", `${result.message}. Nothing was sent.`, result.plan ? { reference: result.plan.correlation_id } : {});
    case "rejected":
      return writeError("failed", `the service refused the write: it was not applied (${result.message})`, {
        reference: result.plan.correlation_id,
        ...auditWarning(result.audit_problem),
      });
    case "submitted":
      return submittedAnswer(result, now);
    case "uncertain":
      return writeResult(
        {
          status: "uncertain",
          ...planView(result.plan),
          candidates: result.candidates.map((candidate) => ({ id: candidate.id, differences: candidate.differences })),
          ...auditWarning(result.audit_problem),
          error: result.message,
        },
        lines(
          `UNCERTAIN, it may already be applied: ${result.message}`,
          movesBlock(result.plan),
          result.candidates.length === 0 ? "" : `Candidates: ${describeCandidates(result.candidates)}`,
          result.audit_problem === null ? "" : `WARNING: ${renderText(result.audit_problem)}`,
        ),
        true,
      );
  }
}

function auditWarning(problem: LocalText | null): { warning?: string } {
  return problem === null ? {} : { warning: renderText(problem) };
}

/** The question the person is asked (a form, the confirmation page): the dry run's figures, checked again; what its digest covers. */
export function questionText(title: string, plan: PlannedWrite): string {
  return shownQuestion(personMessage(title, plan));
}

/** The confirmation a person sees in the client's form: plain text, workspace text sanitised. */
export function personMessage(title: string, plan: PlannedWrite): string {
  const repeat = acknowledgedRepeat(plan);
  const warnings = plan.checks.filter((check) => check.severity === "warn" && check !== repeat).map((check) => `Warning: ${check.message}`);
  return lines(
    repeatLine(plan),
    `${title} as operator ${plan.operator}${plan.person === null ? "" : `, prepared for ${oneLineUntrusted(describePerson(plan.person))}`}:`,
    ...whatMovesLines(plan),
    repeat === undefined ? "" : `Repeats: ${oneLineUntrusted(repeat.message)}`,
    `Summary: ${oneLineUntrusted(renderText(plan.summary))}`,
    ...planLines(plan).filter((line) => !line.startsWith("Passed:")),
    ...warnings.map((warning) => oneLineUntrusted(warning)),
    "Submit it?",
  );
}

/** The finding that this write repeats an earlier identical one on purpose, if it does. */
function acknowledgedRepeat(plan: PlannedWrite): PlannedWrite["checks"][number] | undefined {
  return plan.checks.find((check) => check.code === "REPEAT_ACKNOWLEDGED");
}

/**
 * First in what the person confirms: a write that repeats an earlier identical one says so in a
 * fixed sentence. The finding that names the earlier write is workspace text (up to 2,000
 * characters, other transactions' recipients among them): it comes with the warnings, after what
 * moves, so nothing it says can stand before the account, amount and recipient.
 */
export function repeatLine(plan: PlannedWrite): string {
  const acknowledged = acknowledgedRepeat(plan);
  if (acknowledged === undefined) return "";
  return acknowledged.facts.may_pay_twice === "true"
    ? "THIS SENDS AGAIN what may already be applied: IT MAY PAY TWICE."
    : "THIS SENDS AGAIN what was already sent.";
}
