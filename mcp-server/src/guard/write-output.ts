import { PersonOnRecord } from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { toolResult } from "../server/tool-result.js";
import { CheckView } from "../views/check-view.js";
import { AccountRef, AmountView, Entity } from "../views/view-schemas.js";

export const WriteStatus = z.enum(["dry_run", "blocked", "refused", "declined", "submitted", "uncertain", "failed", "waiting_for_person", "expired"]);
export type WriteStatus = z.infer<typeof WriteStatus>;

/**
 * What every answer about a plan carries (planView): what moves first (the account, its name held
 * to a budget, the amounts in both units, where they go, the fee, the balances before and after),
 * then the dates, the checks that did not pass, governance, and the request's method and path.
 */
export const PlanView = z.object({
  reference: z.string(),
  account: AccountRef,
  amounts: z.record(z.string(), AmountView),
  destinations: z.array(z.object({ role: z.string(), value: z.string() })),
  fee: z.union([z.object({ estimated: AmountView }), z.object({ unknown: z.string() })]),
  balances: z.array(z.object({ name: z.string(), before: AmountView, after: AmountView })).optional(),
  dates: z.record(z.string(), z.string()).optional(),
  checks: z.array(CheckView).optional(),
  governance: Entity.nullable(),
  request: z.object({ method: z.string(), path: z.string() }),
  prepared_for: PersonOnRecord.optional(),
});

/** A submission's transaction: what it is, where it stands, and once broadcast its fee and hash. */
export const SubmittedTransaction = z.object({
  id: z.number(),
  type: z.string(),
  status: z.string(),
  amount: AmountView,
  fees: AmountView.optional(),
  tx_hash: z.string().optional(),
  broadcast_on: z.string().optional(),
  /** A Solana stake it created, once the account's stakes list it. */
  stake_uid: z.string().optional(),
});

/**
 * The answer of every guarded write: its status, and what the status has to say. A dry run is a
 * plan (PlanView) with expires_at (in token mode, without a view, its confirmation token too, as in
 * the text), a block or a refusal
 * the plan or the reason and an error, a submission the transaction and where it stands, an
 * uncertain outcome the candidates.
 */
export const WriteOutput = z.object({
  status: WriteStatus,
  ...PlanView.partial().shape,
  expires_at: z.string().optional(),
  confirmation_token: z.string().optional(),
  operator: z.string().optional(),
  reason: z.string().optional(),
  transaction_id: z.number().optional(),
  transaction: SubmittedTransaction.optional(),
  waiting: z.object({ missing: z.array(z.object({ step: z.number(), needs: z.number(), of: z.array(z.string()) })), expires_at: z.string() }).optional(),
  candidates: z.array(z.object({ id: z.number(), differences: z.array(z.string()) })).optional(),
  looked_up: z.boolean().optional(),
  warning: z.string().optional(),
  error: z.string().optional(),
});
export type WriteAnswer = z.input<typeof WriteOutput>;

/** A write's answer, typed by the write tools' output schema. */
export function writeResult(answer: WriteAnswer, text: string, isError = false): CallToolResult {
  return toolResult(answer, text, isError);
}
