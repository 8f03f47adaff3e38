import {
  delimitUntrusted,
  describePerson,
  oneLineUntrusted,
  renderText,
  sanitizeUntrustedValue,
  stringifyJsonExact,
  whatMoves,
  whatMovesLines,
  type Finding,
  type PersonOnRecord,
  type PlannedWrite,
} from "@custody/shared";
import type { z } from "zod";
import { checkViews, describeChecks } from "../views/check-view.js";
import { recordView } from "../views/workspace-view.js";
import type { PlanView } from "./write-output.js";

/**
 * What every answer about a plan carries in structuredContent: what moves first (the account, its
 * name held to a budget, the amounts in both units, where they go, the fee and the balances before
 * and after), then the dates, the checks that did not pass (those that did are one line of the
 * text), governance, and the request's method and path. Each thing once: the exact body is in the
 * text (requestLine), where the person reads it, as is the prose.
 */
export function planView(plan: PlannedWrite): z.input<typeof PlanView> {
  const governance = plan.governance;
  const attention = plan.checks.filter((check) => check.severity !== "info");
  const moves = whatMoves(plan);
  return {
    reference: plan.correlation_id,
    account: moves.account,
    amounts: plan.amounts,
    destinations: moves.destinations,
    fee: plan.fee,
    ...(plan.balances.length === 0 ? {} : { balances: plan.balances }),
    ...(Object.keys(plan.dates).length === 0 ? {} : { dates: plan.dates }),
    ...(attention.length === 0 ? {} : { checks: checkViews(attention) }),
    governance:
      governance === null
        ? null
        : recordView({
            outcome: governance.outcome,
            rule: governance.rule,
            ...(governance.pending_steps.length === 0
              ? {}
              : { pending_steps: governance.pending_steps.map(({ index, ...step }) => ({ step: index + 1, ...step })) }),
          }),
    request: { method: plan.call.method, path: plan.call.path },
    ...(plan.person === null ? {} : { prepared_for: sanitizeUntrustedValue(plan.person) as PersonOnRecord }),
  };
}

/**
 * Who signed in and the write is prepared for, and as which operator ("" for a single user):
 * "Prepared for Alice Martin <alice@…> (subject alice), as operator treasury-bot."
 */
export function preparedForLine(plan: PlannedWrite): string {
  return plan.person === null ? "" : `Prepared for ${delimitUntrusted("prepared_for", describePerson(plan.person))}, as operator ${plan.operator}.`;
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
  // One line: the summary quotes members' names, which must not begin a line that reads as a fact ("Recipient: ...").
  return plan.governance === null
    ? "Governance: not reported by the account; the workspace decides."
    : `Governance: ${oneLineUntrusted(renderText(plan.governance.summary))}.`;
}

/** What moves, first in every answer about a plan: the title, then account, amount, destinations, fee, balances, one a line; workspace text delimited. */
export function movesBlock(plan: PlannedWrite): string {
  return [`${plan.identity.title}:`, ...whatMovesLines(plan, delimitUntrusted)].join("\n");
}

/** The rest of the plan for a model or a person, after what moves: dates, the checks folded, governance. */
export function planLines(plan: PlannedWrite): string[] {
  return [datesLine(plan), checksLines(plan.checks), governanceLine(plan)].filter((line) => line !== "");
}

/** The exact body as the service will receive it (a Solana stake amount is a JSON integer there), workspace text sanitised. */
export function exactBody(plan: PlannedWrite): string {
  return stringifyJsonExact(sanitizeUntrustedValue(plan.call.body) ?? null);
}

/** The request's method, path and exact body, delimited: it carries workspace text. */
export function requestLine(plan: PlannedWrite): string {
  return `Request: ${plan.call.method} ${plan.call.path} ${delimitUntrusted("request.body", exactBody(plan))}`;
}
