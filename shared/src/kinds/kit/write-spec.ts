import type { z } from "zod";
import type { CustodyClient } from "../../client/custody-client.js";
import type { CallOptions } from "../../client/client-options.js";
import type { GovernanceExpectation } from "../../governance/rule-evaluation.js";
import { renderText, type LocalText } from "../../l10n/translate.js";
import type { PolicySubject } from "../../policy/policy-checks.js";
import type { Toolset } from "../../policy/policy.js";
import type { Finding } from "../../schemas/finding.js";
import type { Account } from "../../schemas/account.js";
import type { Currency } from "../../schemas/currency.js";
import type { SolanaStake } from "../../schemas/solana-stake.js";
import type { Transaction } from "../../schemas/transaction.js";
import type { PlanContext } from "./plan-context.js";
import type { NetworkFee } from "./network-fee.js";
import type { BalanceChange } from "./balance-change.js";
import type { LostAnswer } from "./lost-answer-fields.js";

/** How the surfaces name a write: one tool name, toolset and title for the policy, the audit log, the MCP tool and the VS Code command. */
export interface WriteIdentity {
  tool: string;
  toolset: Toolset;
  title: string;
}

/** The exact call a write makes: POST to a path under {base_url}, with this body (domain form, bigints; null when it has none or could not be built). */
export interface WriteCall {
  method: "POST";
  path: string;
  body: unknown;
}

/**
 * Where a write sends what it moves, as the person must see it: the recipient of a send, the
 * validator of a delegation, the contract of a call and the address a deposit withdraws to, the stake an action works on, the rewards
 * destination, or the balance of the same account it goes into; an approval first names the
 * transaction it releases.
 */
export interface Destination {
  role: "transaction" | "recipient" | "validator" | "contract" | "withdrawals" | "stake" | "payee" | "into";
  value: string;
  /** When the value is the write's own words (a new stake, the same account; never workspace text): them as a template; `value` is their English. */
  text?: LocalText;
}

/** A destination the write describes in its own words: `value` in English, `text` for the reader's language. */
export function describedDestination(role: Destination["role"], text: LocalText): Destination {
  return { role, value: renderText(text), text };
}

/** What a write's plan produces on fresh data; the road adds the policy, the digest and the intent. */
export interface WriteDraft {
  account: Account;
  currency: Currency;
  call: WriteCall;
  checks: Finding[];
  /** The amounts the request itself carries, in base units, by name (amount, max_fees). */
  amounts: Record<string, bigint>;
  /** Where it sends what it moves (at least one: every write names its counterpart). */
  destinations: [Destination, ...Destination[]];
  /** The balances it draws on or adds to, before and after. */
  balances: BalanceChange[];
  /** The network fee the service estimates for it. */
  fee: NetworkFee;
  /** Moments it leads to: withdrawable_at of a deactivation. */
  dates?: Record<string, Date>;
  governance: GovernanceExpectation | null;
  policy: Omit<PolicySubject, "currency" | "network" | "limits">;
  proposed_max_fees: bigint | null;
  /** What the request does, in a sentence: English in the MCP server's answers, the window's language in the extension. */
  summary: LocalText;
  stake?: SolanaStake;
  transaction?: Transaction;
  /** Sends exactly the planned body (typed, as the plan built it), once. */
  send(client: CustodyClient, options: CallOptions): Promise<Transaction>;
  lostAnswer: LostAnswer;
}

/** Every request's own fields besides its kind: set by the road when confirming, or by the person repeating a write on purpose. */
export interface RequestCommon {
  correlation_id?: string | undefined;
  repeat_of?: string | undefined;
}

/**
 * One kind of write, in one place: its request schema, its identity, what it targets, how it plans
 * (a typed body, built on fresh data; input problems come back as findings) and, through the plan,
 * how it is sent and how a lost answer is recognised.
 */
export interface WriteSpec<Schema extends z.ZodObject<{ kind: z.ZodLiteral<string> }>> {
  kind: z.output<Schema>["kind"];
  identity: WriteIdentity;
  schema: Schema;
  /** An account named by the request's `account`, or a transaction named by its `transaction_id`. */
  target: "account" | "transaction";
  /** The request's fields that move funds, in base units (the surfaces convert them). */
  amountFields: readonly string[];
  /**
   * Whether its plan proposes a max_fees when the request names none: its confirmation then plans
   * with the cap the dry run proposed, so the question and the POST carry the figure the person saw.
   * Only for a request with an optional max_fees.
   */
  proposesMaxFees?: boolean;
  plan(ctx: PlanContext, request: z.output<Schema>, reference: string): Promise<WriteDraft>;
}

/** A spec with its request type erased, as the registry holds it: it parses what it is given first. */
export interface AnyWriteSpec {
  kind: string;
  identity: WriteIdentity;
  target: "account" | "transaction";
  amountFields: readonly string[];
  proposesMaxFees?: boolean;
  planAny(ctx: PlanContext, request: unknown, reference: string): Promise<WriteDraft>;
}

/** The spec, and its erased form for the registry: the request is parsed by the spec's own schema, so no cast is needed. */
export function defineWrite<Schema extends z.ZodObject<{ kind: z.ZodLiteral<string> }>>(spec: WriteSpec<Schema>): WriteSpec<Schema> & AnyWriteSpec {
  return {
    ...spec,
    planAny: (ctx, request, reference) => spec.plan(ctx, spec.schema.parse(request), reference),
  };
}
