import type { CustodyClient } from "../client/custody-client.js";
import { AmbiguousWriteError, CustodyApiError, CustodyError, InvalidInputError, NetworkError, ResponseValidationError } from "../client/errors.js";
import type { ApproveTransactionRequest, TransactionRequest } from "../schemas/transaction-request.js";
import type { CreateSolanaStakeRequest, DelegateSolanaStakeRequest, SplitSolanaStakeRequest } from "../schemas/solana-stake.js";
import type { Transaction } from "../schemas/transaction.js";
import type { PlannedWrite } from "./planned-write.js";
import { carriesNote, lookUpWrite, transactionWatermark, type LookupResult } from "./write-lookup.js";

export type WriteOutcome =
  | { status: "submitted"; transaction: Transaction; looked_up: boolean }
  /** The answer was lost and the look-up found nothing: most likely not applied; nothing was re-sent. */
  | { status: "not_found"; message: string; cause: string }
  /** The answer was lost and the look-up found several candidates: a person must decide. */
  | { status: "uncertain"; message: string; cause: string; candidates: number[] };

function send(client: CustodyClient, plan: PlannedWrite, signal?: AbortSignal): Promise<Transaction> {
  const options = { signal };
  const body = plan.call.body;
  const accountId = plan.account.id;
  const uid = plan.stake?.uid ?? "";
  switch (plan.kind) {
    case "send":
    case "ethereum_stake":
    case "polkadot_bond_extra":
    case "polkadot_unbond":
    case "polkadot_rebond":
    case "polkadot_withdraw_unbonded":
    case "polkadot_set_payee":
      return client.createTransaction(body as TransactionRequest, options);
    case "approve_transaction":
      return client.approveTransaction(plan.transaction?.id ?? 0, body as ApproveTransactionRequest, options);
    case "solana_create_stake":
      return client.createSolanaStake(accountId, body as CreateSolanaStakeRequest, options);
    case "solana_deactivate_stake":
      return client.deactivateSolanaStake(accountId, uid, options);
    case "solana_withdraw_stake":
      return client.withdrawSolanaStake(accountId, uid, options);
    case "solana_delegate_stake":
      return client.delegateSolanaStake(accountId, uid, body as DelegateSolanaStakeRequest, options);
    case "solana_split_stake":
      return client.splitSolanaStake(accountId, uid, body as SplitSolanaStakeRequest, options);
    case "solana_split_deactivate_stake":
      return client.splitDeactivateSolanaStake(accountId, uid, body as SplitSolanaStakeRequest, options);
  }
}

/** Whether the service may have applied a POST that did not answer cleanly. */
function isAmbiguous(error: unknown): boolean {
  return error instanceof AmbiguousWriteError || error instanceof ResponseValidationError || (error instanceof CustodyApiError && error.checkBeforeRetry);
}

/** A step before the POST failed (the watermark read): the write was not sent. Carries the step's own message. */
class NotSentError extends CustodyError {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * Whether an error thrown by submitWrite establishes that the write did not happen: the POST was
 * refused with a definite error answer, or it was never sent (its input was refused, or the
 * connection failed before the request went out). Any other error leaves the write possibly applied.
 */
export function certainlyNotApplied(error: unknown): boolean {
  if (error instanceof InvalidInputError || error instanceof NotSentError) return true;
  if (error instanceof NetworkError) return error.method === "POST";
  return error instanceof CustodyApiError && error.method === "POST" && !error.checkBeforeRetry;
}

const LOOKUP_ATTEMPTS = 3;
const LOOKUP_PAUSE_MS = 300;

async function lookUpPatiently(client: CustodyClient, plan: PlannedWrite, watermark: number | null, signal?: AbortSignal): Promise<LookupResult> {
  let result: LookupResult = { found: "none" };
  for (let attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, LOOKUP_PAUSE_MS * attempt));
    result = await lookUpWrite(client, plan, watermark, signal);
    if (result.found !== "none") return result;
  }
  return result;
}

/**
 * Sends the planned write once. The POST is never repeated: when its outcome is ambiguous
 * (timeout, dropped connection, unreadable answer), the write is looked up with GETs before
 * anything is reported.
 */
export async function submitWrite(client: CustodyClient, plan: PlannedWrite, signal?: AbortSignal): Promise<WriteOutcome> {
  let watermark: number | null = null;
  if (!carriesNote(plan.kind) && plan.kind !== "approve_transaction") {
    try {
      watermark = await transactionWatermark(client, plan.account.id, signal);
    } catch (error) {
      throw new NotSentError(error);
    }
  }
  try {
    return { status: "submitted", transaction: await send(client, plan, signal), looked_up: false };
  } catch (error) {
    if (!isAmbiguous(error)) throw error;
    const cause = (error as Error).message;
    let result: LookupResult;
    try {
      result = await lookUpPatiently(client, plan, watermark, signal);
    } catch (lookupError) {
      // The write may have been applied and cannot be looked up now: uncertain, never a failure.
      return {
        status: "uncertain",
        cause,
        candidates: [],
        message: `the service's answer was lost and the look-up for this write (reference ${plan.correlation_id}) failed (${(lookupError as Error).message}); it may have been applied. Nothing was re-sent: check the account's transactions before doing anything else`,
      };
    }
    if (result.found === "one") return { status: "submitted", transaction: result.transaction, looked_up: true };
    if (result.found === "several") {
      const candidates = result.transactions.map((tx) => tx.id);
      return {
        status: "uncertain",
        cause,
        candidates,
        message: `the service's answer was lost and ${candidates.length} transactions could be this write (ids ${candidates.join(", ")}); nothing was re-sent: review them before doing anything else`,
      };
    }
    return {
      status: "not_found",
      cause,
      message: `the service's answer was lost and no transaction matching this write (reference ${plan.correlation_id}) exists: it was most likely not applied. Nothing was re-sent; check again with a search before preparing it anew`,
    };
  }
}
