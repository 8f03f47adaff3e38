import {
  committedSince,
  hasBlocking,
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
import { accountWithCurrency } from "../tools/account-input.js";
import { recordAudit } from "./audit-trail.js";
import type { SealedState, TokenClaims } from "./confirmation-token.js";
import { askPerson } from "./elicitation.js";
import { WriteOutput, type WriteStatus } from "./write-output.js";
import { blockedAnswer, declinedAnswer, dryRunAnswer, outcomeAnswer, personMessage } from "./write-answers.js";

const DAY_MS = 24 * 60 * 60 * 1000;

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

function answer(status: WriteStatus, message: string, extra: Record<string, unknown> = {}): CallToolResult {
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
    spentLast24h: (currency) => committedSince(ctx.audit.path, { operator: ctx.operator, currency, since: new Date(ctx.now().getTime() - DAY_MS) }),
  };
}

/**
 * A guarded write tool: a call without a token is a dry run (nothing sent; checks, exact
 * request, token); a call with the token re-plans on fresh data, refuses any difference from
 * the dry run, asks the person when the client can, then submits once. Every call is audited.
 */
export function defineWriteTool<Shape extends z.ZodRawShape>(spec: WriteToolSpec<Shape>): AnyTool {
  const name = spec.name;
  const tool: ToolDefinition = {
    name,
    title: spec.title,
    description: spec.description,
    toolset: spec.toolset,
    input: z.object({ ...spec.input, confirmation_token: ConfirmationTokenInput }) as unknown as z.ZodObject,
    output: WriteOutput,
    annotations: WRITE_HINTS,
    async handle(rawArgs, call) {
      const { ctx } = call;
      const { confirmation_token: token, ...args } = rawArgs as WriteArgs<Shape>;
      const refusal = permissionRefusal(call, tool);
      if (refusal) {
        recordAudit(ctx, { event: "refused", tool: name, error: refusal });
        return answer("refused", refusal);
      }
      let claims: TokenClaims | null = null;
      if (token !== undefined) {
        const check = ctx.tokens.redeem(token, { operator: ctx.operator, tool: name });
        if (!check.ok) {
          recordAudit(ctx, { event: "refused", tool: name, error: check.message, details: { reason: check.reason } });
          return answer("refused", `${check.message}. Nothing was sent.`);
        }
        claims = check.claims;
      }
      let plan: PlannedWrite;
      try {
        const input = args as z.output<z.ZodObject<Shape>>;
        const candidate =
          spec.on === "transaction" ? spec.toRequest(input) : spec.toRequest(input, await accountWithCurrency(call, (input as { account: number | string }).account));
        const request = sealRequest(candidate, claims?.state ?? null);
        plan = await planWrite(planContext(call), request);
      } catch (error) {
        const message = errorMessage(error);
        recordAudit(ctx, { event: "failed", tool: name, error: message, details: { stage: claims ? "confirm" : "dry_run" } });
        return answer("failed", `${message}. Nothing was sent.`);
      }
      const digest = requestDigest(plan);
      const audited = { tool: name, request_digest: digest, request: plan.request, checks: plan.checks };
      if (claims === null) {
        if (hasBlocking(plan.checks)) {
          recordAudit(ctx, { ...audited, event: "blocked", details: { stage: "dry_run" } });
          return blockedAnswer(plan, "dry run");
        }
        const issued = ctx.tokens.issue({
          operator: ctx.operator,
          tool: name,
          digest,
          state: { correlation_id: plan.correlation_id, max_fees: plan.proposed_max_fees === null ? null : plan.proposed_max_fees.toString() },
        });
        recordAudit(ctx, { ...audited, event: "dry_run", details: { expires_at: issued.expiresAt.toISOString() } });
        return dryRunAnswer(name, plan, issued);
      }
      if (claims.digest !== digest) {
        const message =
          "confirmation_token: the arguments differ from the dry run (or the account, the transaction or the fees changed since); the token is used up. Nothing was sent: run a new dry run";
        recordAudit(ctx, { ...audited, event: "refused", error: message, details: { reason: "digest_mismatch", token_digest: claims.digest } });
        return answer("refused", message);
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
        return answer("refused", message);
      }
      return submit(call, name, plan, digest, consent.answer === "accepted");
    },
  };
  return tool;
}

async function submit(call: ToolCall, name: string, plan: PlannedWrite, digest: string, personConfirmed: boolean): Promise<CallToolResult> {
  const { ctx } = call;
  const audited = { tool: name, request_digest: digest, request: plan.request };
  let outcome: WriteOutcome;
  try {
    // No abort signal: once sent, the write is seen through (answer or look-up) even if the caller goes away.
    outcome = await submitWrite(ctx.client, plan);
  } catch (error) {
    const message = errorMessage(error);
    recordAudit(ctx, { ...audited, event: "failed", error: message });
    return answer("failed", message, { summary: sanitizeUntrustedText(plan.summary) });
  }
  if (outcome.status === "submitted") {
    if (outcome.looked_up) recordAudit(ctx, { ...audited, event: "ambiguous", details: { outcome: "found" } });
    const committed = { currency: plan.currency.name, ...(plan.policy_amount === undefined ? {} : { policy_amount: plan.policy_amount.toString() }) };
    recordAudit(ctx, {
      ...audited,
      event: "submitted",
      transaction_id: outcome.transaction.id,
      details: { ...committed, transaction_id: outcome.transaction.id, looked_up: outcome.looked_up, person_confirmed: personConfirmed },
    });
  } else {
    recordAudit(ctx, { ...audited, event: "ambiguous", error: outcome.cause });
    recordAudit(ctx, { ...audited, event: "resolved", details: { outcome: outcome.status, ...(outcome.status === "uncertain" ? { candidates: outcome.candidates } : {}) } });
  }
  return outcomeAnswer(plan, outcome);
}
