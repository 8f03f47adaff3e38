import type { CustodyClient } from "../client/custody-client.js";
import type { CallOptions } from "../client/client-options.js";
import type { Account } from "../schemas/account.js";
import { CustodyError } from "../client/errors.js";
import type { AccountReference } from "./write-request.js";

export class AccountNotFoundError extends CustodyError {
  constructor(
    readonly reference: AccountReference,
    detail: string,
  ) {
    super(`account: ${detail}`);
  }
}

/**
 * The account a person or an AI named, by integer id or by exact name. A name shared by several
 * accounts is refused rather than guessed.
 */
export async function resolveAccount(client: CustodyClient, reference: AccountReference, options?: CallOptions): Promise<Account> {
  if (typeof reference === "number") return client.getAccount(reference, options);
  const accounts = await client.listAllAccounts({ ...options, pageSize: 1000, maxPages: 1000 });
  const exact = accounts.filter((account) => account.name === reference);
  if (exact.length === 1) return exact[0] as Account;
  if (exact.length > 1) {
    throw new AccountNotFoundError(reference, `the name ${JSON.stringify(reference)} is shared by accounts ${exact.map((a) => a.id).join(", ")}: name the account by id`);
  }
  if (/^[1-9][0-9]*$/.test(reference)) return client.getAccount(Number.parseInt(reference, 10), options);
  const folded = reference.trim().toLowerCase();
  const near = accounts.filter((account) => account.name.toLowerCase().includes(folded)).slice(0, 5);
  const hint = near.length > 0 ? `; did you mean ${near.map((a) => `${JSON.stringify(a.name)} (id ${a.id})`).join(", ")}?` : "";
  throw new AccountNotFoundError(reference, `no account is named ${JSON.stringify(reference)}${hint}`);
}
