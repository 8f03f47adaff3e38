import type { CallOptions } from "../../client/client-options.js";
import type { CustodyClient } from "../../client/custody-client.js";
import { CustodyError } from "../../client/errors.js";
import { unlessNotFound } from "../../client/unless-not-found.js";
import type { SolanaStake } from "../../schemas/solana-stake.js";
import type { Transaction } from "../../schemas/transaction.js";
import { withInputFieldNames } from "./input-field-names.js";

/** An id, uid or name the caller gave that names nothing in the workspace: refused under the caller's own field name. */
export class InputNotFoundError extends CustodyError {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

/**
 * The answer of a read by something the caller gave; the service's 404 is that input naming
 * nothing, refused under the input's field ("transaction_id: no transaction has the id 42")
 * rather than as the path the client read.
 */
export async function foundByInput<T>(field: string, detail: string, answer: Promise<T>): Promise<T> {
  const found = await unlessNotFound(answer);
  if (found === undefined) throw new InputNotFoundError(field, detail);
  return found;
}

/** The transaction the caller's `transaction_id` names. */
export function givenTransaction(client: CustodyClient, id: number, options?: CallOptions): Promise<Transaction> {
  return foundByInput("transaction_id", `no transaction has the id ${id}`, client.getTransaction(id, options));
}

/** The stake the caller's `stake_uid` names on the account (the client names that path segment uid). */
export function givenStake(client: CustodyClient, accountId: number, uid: string, options?: CallOptions): Promise<SolanaStake> {
  return foundByInput(
    "stake_uid",
    `account ${accountId} has no stake ${JSON.stringify(uid)}`,
    withInputFieldNames({ uid: "stake_uid" }, () => client.getSolanaStake(accountId, uid, options)),
  );
}
