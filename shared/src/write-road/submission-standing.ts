import type { CustodyClient } from "../client/custody-client.js";
import { abortableDelay } from "../client/abortable-delay.js";
import { missingSteps, requestExpiresAt, type MissingStep } from "../governance/request-standing.js";
import type { Transaction } from "../schemas/transaction.js";
import { errorMessage } from "../untrusted/error-message.js";

/** Where a submitted write stands once the road has followed it for a moment. */
export interface SubmissionStanding {
  /** The transaction as last read: broadcast (with its fee and hash), still on its way, or waiting. */
  transaction: Transaction;
  /** Waiting for approval: the steps short of their quorum, with the approvers still needed, and the expiry. */
  waiting: { missing: MissingStep[]; expires_at: Date } | null;
  /** A read that failed while following it; the write stands as submitted whatever it says. */
  problem: string | null;
  /** A Solana stake it created: the stake account the service named, and the stake's uid once the account's stakes list it. */
  new_stake?: { stake_account: string; uid: string | null } | undefined;
}

/** The stake account a Solana stake creation names (its coin_fields), or null for any other transaction. */
function createdStakeAccount(tx: Transaction): string | null {
  if (tx.type !== "STAKE_CREATE_DELEGATE") return null;
  const account = (tx.coin_fields as { tx_parameters?: { stake_account?: unknown } } | null)?.tx_parameters?.stake_account;
  return typeof account === "string" ? account : null;
}

/** The new stake by the account the service named: its uid once the account's stakes list it (after the broadcast). */
async function newStake(client: CustodyClient, tx: Transaction, signal: AbortSignal | undefined): Promise<SubmissionStanding["new_stake"]> {
  const stakeAccount = createdStakeAccount(tx);
  if (stakeAccount === null) return undefined;
  const listed = tx.tx_hash === null ? [] : await client.listSolanaStakes(tx.account_id, { signal });
  return { stake_account: stakeAccount, uid: listed.find((stake) => stake.blockchain_state.pub_key === stakeAccount)?.uid ?? null };
}

const ON_ITS_WAY = new Set(["APPROVED", "SIGNED"]);
const FIRST_PAUSE_MS = 50;

/**
 * Follows a write the service accepted: one approved goes on to be signed and broadcast, which
 * fills in its fee and hash, so it is read again (pausing 50 ms, then twice as long each time)
 * until it is no longer on its way or `waitMs` has passed; one pending approval is looked up in
 * its governance request (the steps still short and who can approve them, and when it expires).
 * Only GETs; a failed read is reported, never turned into a failure of the write.
 */
export async function followSubmission(
  client: CustodyClient,
  submitted: Transaction,
  options: { waitMs: number; signal?: AbortSignal | undefined },
): Promise<SubmissionStanding> {
  let transaction = submitted;
  try {
    const until = Date.now() + options.waitMs;
    for (let pause = FIRST_PAUSE_MS; ON_ITS_WAY.has(transaction.status) && Date.now() + pause <= until; pause *= 2) {
      await abortableDelay(pause, options.signal);
      transaction = await client.getTransaction(transaction.id, { signal: options.signal });
    }
    if (transaction.status !== "PENDING_APPROVAL")
      return { transaction, waiting: null, problem: null, new_stake: await newStake(client, transaction, options.signal) };
    const status = await client.getRequestStatus(transaction.last_request, { signal: options.signal });
    return { transaction, waiting: { missing: missingSteps(status), expires_at: requestExpiresAt(status) }, problem: null };
  } catch (error) {
    return { transaction, waiting: null, problem: `could not follow transaction ${transaction.id} (${errorMessage(error)}); read it again to see it` };
  }
}
