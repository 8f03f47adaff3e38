import type { LocalText } from "../../l10n/translate.js";
import type { Currency } from "../../schemas/currency.js";
import type { Finding } from "../../schemas/finding.js";
import type { TransactionRequest } from "../../schemas/transaction-request.js";
import { bodyToSend, type BuiltBody } from "./built-body.js";
import { settledCap, settleMaxFees } from "./fee-proposal.js";
import type { ExpectedTransaction } from "./lost-answer-fields.js";
import type { NetworkFee } from "./network-fee.js";
import type { PlanContext } from "./plan-context.js";
import type { WriteDraft } from "./write-spec.js";

/**
 * The part of a draft every POST /transactions write shares (a send, an Ethereum stake, every
 * Polkadot staking operation): the body as built, sent once by createTransaction, and a lost
 * answer recognised by the correlation reference its note carries, compared with `expected`.
 */
export function transactionDraft(built: BuiltBody<TransactionRequest>, expected: ExpectedTransaction): Pick<WriteDraft, "call" | "send" | "lostAnswer"> {
  return {
    call: { method: "POST", path: "/transactions", body: built.body },
    send: (client, options) => client.createTransaction(bodyToSend(built), options),
    lostAnswer: { by: "reference", expected },
  };
}

/** A POST /transactions request whose max_fees is settled: given, or proposed from the service's estimate. */
export interface CappedTransaction {
  built: BuiltBody<TransactionRequest>;
  /** The cap the body carries: the one given, the one proposed, or 0 while blocked. */
  maxFees: bigint;
  proposed: bigint | null;
  fee: NetworkFee;
  /** The cap compared with the estimate, or the proposal (or its refusal). */
  findings: Finding[];
  /** The request's amount and its cap, for the draft's amounts. */
  amounts: Record<string, bigint>;
  /** The cap as the summary says it. */
  capText: LocalText;
}

/** Settles the fee cap of a request that moves `amount` (settleMaxFees), then builds the body with it. */
export async function cappedTransaction(
  ctx: PlanContext,
  request: { amount: bigint; max_fees?: bigint | undefined; correlation_id?: string | undefined },
  currency: Currency,
  build: (maxFees: bigint) => BuiltBody<TransactionRequest>,
): Promise<CappedTransaction> {
  const settled = await settleMaxFees(ctx, request.max_fees, build, currency, request.correlation_id !== undefined);
  const cap = settledCap(request.max_fees, settled, currency);
  return {
    built: build(settled.maxFees),
    maxFees: settled.maxFees,
    proposed: settled.proposed,
    fee: settled.fee,
    findings: settled.findings,
    amounts: { amount: request.amount, ...cap.amounts },
    capText: cap.text,
  };
}
