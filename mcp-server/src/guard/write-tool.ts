import {
  certainlyNotApplied,
  committedDetails,
  committedSince,
  DAILY_LIMIT_WINDOW_MS,
  hasBlocking,
  NOT_APPLIED_OUTCOME,
  reserveDailyAmount,
  SerialByKey,
  withReservationFinding,
  writeSerialKey,
  planWrite,
  requestDigest,
  sanitizeUntrustedText,
  submitWrite,
  WriteRequest,
  formatIssues,
  type Account,
  type Currency,
  type PlanContext,
  type PlannedWrite,
  type WriteOutcome,
  type Toolset,
} from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { permissionRefusal } from "../tools/define-tool.js";
import { errorMessage } from "../tools/error-message.js";
import type { AnyTool, ToolCall, ToolDefinition } from "../tools/tool-definition.js";
import { WRITE_HINTS } from "../tools/tool-hints.js";
import { toolResult } from "../tools/tool-result.js";
import { strictInput } from "../tools/strict-input.js";
import { accountWithCurrency } from "../tools/account-input.js";
import { AUDIT_SURFACE, recordAudit, type AuditEntry } from "./audit-trail.js";
import type { SealedState, TokenClaims } from "./confirmation-token.js";
import { askPerson } from "./elicitation.js";
import { WriteOutput, type WriteStatus } from "./write-output.js";
import { blockedAnswer, declinedAnswer, dryRunAnswer, outcomeAnswer, personMessage } from "./write-answers.js";

/**
 * One per process, shared by every session: a write's reservation, POST and outcome records for
 * one operator and currency finish before the next write of that currency reserves.
 */
const writesInFlight = new SerialByKey();

export const ConfirmationTokenInput = z.string().optional().describe("Omit to dry-run; the dry run's token submits");

/** The account a write names and its currency, resolved before the amounts are converted. */
export interface WriteTarget {
  account: Account;
  currency: Currency;
}

interface WriteToolCommon<Shape extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  toolset: Toolset;
  /** The tool's own fields; confirmation_token is added. */
  input: Shape;
}

type WriteCandidate = z.input<typeof WriteRequest>;

/**
 * A write tool declares its input and how it maps to a WriteRequest: on an account (its `account`
 * field, whose currency converts the amounts to base units) or on a transaction.
 */
export type WriteToolSpec<Shape extends z.ZodRawShape> = WriteToolCommon<Shape> &
  (
    | { on: "account"; toRequest(args: z.output<z.ZodObject<Shape>>, target: WriteTarget): WriteCandidate }
    | { on: "transaction"; toRequest(args: z.output<z.ZodObject<Shape>>): WriteCandidate }
  );

type WriteArgs<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>> & { confirmation_token?: string };

function writeError(status: WriteStatus, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return toolResult({ status, ...extra, error: message }, `${status.toUpperCase()}: ${message}`, true);
}

/** The request to plan: on a confirmation, with the dry run's correlation id and proposed max_fees. */
function sealRequest(candidate: WriteCandidate, state: SealedState | null): WriteRequest {
  let sealed: WriteCandidate = candidate;
  if (state) {
    sealed = { ...sealed, correlation_id: state.correlation_id };
    if ((sealed.kind === "send" || sealed.kind === "ethereum_stake") && sealed.max_fees === undefined && state.max_fees !== null) {
      sealed = { ...sealed, max_fees: BigInt(state.max_fees) };
    }
  }
  const parsed = WriteRequest.safeParse(sealed);
  if (!parsed.success) throw new Error(formatIssues(parsed.error));
  return parsed.data;
}

function planContext(call: ToolCall): PlanContext {
  const { ctx } = call;
  return {
    client: ctx.client,
    operator: ctx.operator,
    policy: ctx.policy,
    signal: call.signal,
    spentLast24h: (currency) => committedSince(ctx.audit.path, { operator: ctx.operator, currency, since: new Date(ctx.now().getTime() - DAILY_LIMIT_WINDOW_MS) }),
  };
}

/**
 * A guarded write tool: a call without a token is a dry run (nothing sent; checks, exact
 * request, token); a call with the token re-plans on fresh data, refuses any difference from
 * the dry run, asks the person when the client can, then submits once. Every call is audited.
 */
export function defineWriteTool<Shape extends z.ZodRawShape>(spec: WriteToolSpec<Shape>): AnyTool {
  const tool: ToolDefinition = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    toolset: spec.toolset,
    input: strictInput(spec.name, { ...spec.input, confirmation_token: ConfirmationTokenInput }) as unknown as AnyTool["input"],
    output: WriteOutput,
    annotations: WRITE_HINTS,
    async handle(rawArgs, call) {
      try {
        return await guardedWrite(spec, tool, rawArgs as WriteArgs<Shape>, call);
      } catch (error) {
        // Only steps before the POST can throw (an audit line that cannot be written, say): nothing was sent.
        return writeError("failed", `${errorMessage(error)}. Nothing was sent.`);
      }
    },
  };
  return tool;
}

async function guardedWrite<Shape extends z.ZodRawShape>(spec: WriteToolSpec<Shape>, tool: AnyTool, rawArgs: WriteArgs<Shape>, call: ToolCall): Promise<CallToolResult> {
  const { ctx } = call;
  const name = spec.name;
  const { confirmation_token: token, ...args } = rawArgs;
  const refusal = permissionRefusal(call, tool);
  if (refusal) {
    recordAudit(ctx, { event: "refused", tool: name, error: refusal });
    return writeError("refused", refusal);
  }
  let claims: TokenClaims | null = null;
  if (token !== undefined) {
    const check = ctx.tokens.redeem(token, { operator: ctx.operator, tool: name });
    if (!check.ok) {
      recordAudit(ctx, { event: "refused", tool: name, error: check.message, details: { reason: check.reason } });
      return writeError("refused", `${check.message}. Nothing was sent.`);
    }
    claims = check.claims;
  }
  let plan: PlannedWrite;
  try {
    const input = args as z.output<z.ZodObject<Shape>>;
    const candidate =
      spec.on === "transaction" ? spec.toRequest(input) : spec.toRequest(input, await accountWithCurrency(call, (input as { account: number | string }).account));
    plan = await planWrite(planContext(call), sealRequest(candidate, claims?.state ?? null));
  } catch (error) {
    const message = errorMessage(error);
    recordAudit(ctx, { event: "failed", tool: name, error: message, details: { stage: claims ? "confirm" : "dry_run" } });
    return writeError("failed", `${message}. Nothing was sent.`);
  }
  const digest = requestDigest(plan);
  const audited = { tool: name, request_digest: digest, request: plan.request, checks: plan.checks };
  if (claims === null) {
    if (hasBlocking(plan.checks)) {
      recordAudit(ctx, { ...audited, event: "blocked", details: { stage: "dry_run" } });
      return blockedAnswer(plan, "dry run");
    }
    const proposed = plan.proposed_max_fees === null ? null : plan.proposed_max_fees.toString();
    const issued = ctx.tokens.issue({ operator: ctx.operator, tool: name, digest, state: { correlation_id: plan.correlation_id, max_fees: proposed } });
    recordAudit(ctx, { ...audited, event: "dry_run", details: { expires_at: issued.expiresAt.toISOString() } });
    return dryRunAnswer(name, plan, issued);
  }
  if (claims.digest !== digest) {
    const message =
      "confirmation_token: the arguments differ from the dry run (or the account, the transaction or the fees changed since); the token is used up. Nothing was sent: run a new dry run";
    recordAudit(ctx, { ...audited, event: "refused", error: message, details: { reason: "digest_mismatch", token_digest: claims.digest } });
    return writeError("refused", message);
  }
  if (hasBlocking(plan.checks)) {
    recordAudit(ctx, { ...audited, event: "blocked", details: { stage: "confirm" } });
    return blockedAnswer(plan, "re-check on fresh data");
  }
  recordAudit(ctx, { ...audited, event: "confirmed" });
  const consent = await askPerson(call.session, personMessage(spec.title, plan), claims.expires_at - ctx.now().getTime(), call.signal);
  if (consent.answer === "declined" || consent.answer === "cancelled") {
    recordAudit(ctx, { ...audited, event: "declined", details: { answer: consent.answer, detail: consent.detail } });
    return declinedAnswer(plan, consent.detail);
  }
  if (ctx.now().getTime() >= claims.expires_at) {
    const message = "confirmation_token: expired while waiting for the person's confirmation. Nothing was sent: run a new dry run";
    recordAudit(ctx, { ...audited, event: "refused", error: message, details: { reason: "expired" } });
    return writeError("refused", message);
  }
  return submit(call, name, plan, digest, consent.answer === "accepted");
}

/** Audit lines after the POST: a failure to write one must not hide the outcome of a write that happened. */
function auditAfterSend(ctx: ToolCall["ctx"], entries: AuditEntry[]): string | null {
  try {
    for (const entry of entries) recordAudit(ctx, entry);
    return null;
  } catch (error) {
    return `the audit log could not be written (${errorMessage(error)}): this write is missing from it and from the daily limits`;
  }
}

/**
 * Reserves the write's amount against the daily maximum (atomically, under the audit log's lock,
 * so concurrent confirmations and other processes sharing the log cannot both pass), then sends it
 * once. A refused reservation sends nothing.
 */
function submit(call: ToolCall, name: string, confirmedPlan: PlannedWrite, digest: string, personConfirmed: boolean): Promise<CallToolResult> {
  const { ctx } = call;
  return writesInFlight.run(writeSerialKey(ctx.operator, confirmedPlan.currency.name), async () => {
    // Planned once more inside the section: a write of this operator and currency confirmed at the
    // same moment has been sent (or refused) by now, so its transaction is in the balances or counted
    // in flight, and two confirmations cannot both pass against the same funds.
    let plan: PlannedWrite;
    try {
      plan = await planWrite(planContext(call), confirmedPlan.request);
    } catch (error) {
      const message = errorMessage(error);
      recordAudit(ctx, { tool: name, request_digest: digest, event: "failed", error: message, details: { stage: "send_check" } });
      return writeError("failed", `${message}. Nothing was sent.`);
    }
    if (requestDigest(plan) !== digest) {
      const message = "the request changed since it was confirmed (the account, the transaction or the fees moved). Nothing was sent: run a new dry run";
      recordAudit(ctx, { tool: name, request_digest: digest, request: plan.request, event: "refused", error: message, details: { reason: "digest_mismatch", stage: "send_check" } });
      return writeError("refused", message);
    }
    if (hasBlocking(plan.checks)) {
      recordAudit(ctx, { tool: name, request_digest: digest, request: plan.request, checks: plan.checks, event: "blocked", details: { stage: "send_check" } });
      return blockedAnswer(plan, "last check before sending");
    }
    const reservation = reserveDailyAmount(ctx.audit, ctx.policy, plan, { surface: AUDIT_SURFACE, tool: name, request_digest: digest });
    if (!reservation.reserved) {
      const blocked = { ...plan, checks: withReservationFinding(plan.checks, reservation.finding) };
      recordAudit(ctx, { tool: name, request_digest: digest, request: plan.request, checks: blocked.checks, event: "blocked", details: { stage: "reserve" } });
      return blockedAnswer(blocked, "daily-limit reservation");
    }
    return send(call, name, plan, digest, personConfirmed);
  });
}

async function send(call: ToolCall, name: string, plan: PlannedWrite, digest: string, personConfirmed: boolean): Promise<CallToolResult> {
  const { ctx } = call;
  const audited = { tool: name, request_digest: digest, request: plan.request };
  const reference = plan.correlation_id;
  let outcome: WriteOutcome;
  try {
    // No abort signal: once sent, the write is seen through (answer or look-up) even if the caller goes away.
    outcome = await submitWrite(ctx.client, plan);
  } catch (error) {
    const message = errorMessage(error);
    // Only a write that certainly did not happen releases its reservation; any other failure keeps it counted.
    const details = certainlyNotApplied(error) ? { reference, outcome: NOT_APPLIED_OUTCOME } : { reference };
    const problem = auditAfterSend(ctx, [{ ...audited, event: "failed", error: message, details }]);
    return writeError("failed", problem === null ? message : `${message}; ${problem}`, { summary: sanitizeUntrustedText(plan.summary) });
  }
  // What the daily limits count (shared's committedSince): the reservation, then a submitted write,
  // or an ambiguous one until a later record with its reference settles it.
  const committed = committedDetails(plan);
  let problem: string | null;
  if (outcome.status === "submitted") {
    problem = auditAfterSend(ctx, [
      ...(outcome.looked_up ? [{ ...audited, event: "ambiguous" as const, details: { ...committed, outcome: "found" } }] : []),
      {
        ...audited,
        event: "submitted",
        transaction_id: outcome.transaction.id,
        details: { ...committed, transaction_id: outcome.transaction.id, looked_up: outcome.looked_up, person_confirmed: personConfirmed },
      },
    ]);
  } else {
    problem = auditAfterSend(ctx, [
      { ...audited, event: "ambiguous", error: outcome.cause, details: committed },
      { ...audited, event: "resolved", details: { reference, outcome: outcome.status, ...(outcome.status === "uncertain" ? { candidates: outcome.candidates } : {}) } },
    ]);
  }
  return outcomeAnswer(plan, outcome, problem);
}
