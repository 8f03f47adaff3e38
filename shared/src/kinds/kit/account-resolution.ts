import type { CustodyClient } from "../../client/custody-client.js";
import type { CallOptions } from "../../client/client-options.js";
import type { Account } from "../../schemas/account.js";
import { unlessNotFound } from "../../client/unless-not-found.js";
import { delimitUntrusted } from "../../untrusted/untrusted-text.js";
import { accountDirectoryOf } from "./account-directory.js";
import { foundByInput, InputNotFoundError } from "./input-not-found.js";
import { nearNames } from "./near-names.js";
import type { AccountReference } from "./request-fields.js";

export class AccountNotFoundError extends InputNotFoundError {
  constructor(
    readonly reference: AccountReference,
    detail: string,
  ) {
    super("account", detail);
  }
}

/**
 * The account by name through the client's directory of names (a hint, never trusted alone):
 * it is used only when it is younger than its max age (60 s by default) and names exactly one
 * account for the name. That account is then fetched by id, and the hint holds only if the
 * account still has exactly that name and the workspace still has the number of accounts the
 * listing had: a page of one account read at the same time, unless the listing or such a page is
 * younger than the directory's countTrustMs (1 s), which vouches for the count with no request.
 * Anything else (no hint, a stale one, two ids, a renamed or missing account, a different count)
 * lists every account again and decides from that listing. Digits, which are read as an id too,
 * take the hint that no account has them as a name the same way: checked by the count, no listing
 * (a GET by id at 10,000 accounts would otherwise list them all on every call).
 *
 * When can a hint hide a second account with the same name? Only if, after the listing, another
 * account took the name (or, for digits, any account took it) while the number of accounts stayed
 * the same (a rename, or a creation together with a deletion), within the max age; or if it was
 * created less than countTrustMs after the count was last seen (a creation changes the count,
 * which is caught once that second has passed). Set maxAgeMs to 0 (accountDirectoryOf(client, {
 * maxAgeMs: 0 })) to list every account on each resolution, countTrustMs to 0 to read the count at
 * each. A service whose page_info.count is not the whole list's size only makes every hint fail
 * the check: slower, never wrong.
 */
async function hintedAccount(
  client: CustodyClient,
  name: string,
  absenceSettles: boolean,
  options?: CallOptions,
): Promise<{ account: Account | undefined; nameFree: boolean; noListing: boolean }> {
  const hints = accountDirectoryOf(client).hints();
  const ids = hints?.ids(name) ?? [];
  if (!hints || ids.length > 1 || (ids.length === 0 && !absenceSettles)) return { account: undefined, nameFree: false, noListing: !hints };
  if (ids.length === 0) return { account: undefined, nameFree: await hints.countHolds(options), noListing: false };
  const [account, countHolds] = await Promise.all([unlessNotFound(client.getAccount(ids[0] as number, options)), hints.countHolds(options)]);
  return { account: account?.name === name && countHolds ? account : undefined, nameFree: false, noListing: false };
}

/**
 * The one account with exactly this name, or undefined when none has it; a name shared by several is refused.
 * With absenceSettles (digits that are also read as an id), a hint that no account has the name, checked
 * like any hint (the count unchanged), settles it without a listing.
 */
async function accountNamed(
  client: CustodyClient,
  name: string,
  absenceSettles: boolean,
  options?: CallOptions,
): Promise<{ account: Account | undefined; listing: Account[] | undefined }> {
  const hinted = await hintedAccount(client, name, absenceSettles, options);
  if (hinted.account || hinted.nameFree) return { account: hinted.account, listing: undefined };
  // Without a listing, one under way (another resolution's, the process's warm-up) is as good as a new one; a listing
  // that was contradicted (a hint that failed its check, a name it did not have) is decided against with a new one.
  const directory = accountDirectoryOf(client);
  const accounts = await (hinted.noListing ? directory.current(options) : directory.refresh(options));
  const exact = accounts.filter((account) => account.name === name);
  if (exact.length > 1) {
    throw new AccountNotFoundError(
      name,
      `the name ${delimitUntrusted("account.name", name)} is shared by accounts ${exact.map((a) => a.id).join(", ")}: name the account by id`,
    );
  }
  return { account: exact[0], listing: accounts };
}

/** Digits that could be an account id: no sign, no leading zero, a safe integer. */
function asAccountId(reference: string): number | undefined {
  if (!/^[1-9][0-9]*$/.test(reference)) return undefined;
  const id = Number.parseInt(reference, 10);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** "#42": an id and nothing else, for a string-only input (an MCP tool's) to name an id that is another account's name. */
function explicitAccountId(reference: string): number | undefined {
  return reference.startsWith("#") ? asAccountId(reference.slice(1)) : undefined;
}

/** The account an id names ("#42", or a JSON number); a 404 is the caller's account naming nothing. */
function accountById(client: CustodyClient, id: number, options?: CallOptions): Promise<Account> {
  return foundByInput("account", `no account has the id ${id}`, client.getAccount(id, options));
}

/**
 * The account a person or an AI named: a JSON number, or a string "#" and digits ("#42"), is always
 * an id; another string is an exact name, or, when it is digits and no account has that name, an id. A string of digits that is both an
 * account's id and another account's exact name is refused as ambiguous, naming both: the same
 * input must never make one account or the other pay depending on what exists. A name shared by
 * several accounts is refused rather than guessed. Names are resolved through the client's
 * directory of names (see hintedAccount): one GET by id and one of a single-account page when the
 * hint holds, a listing of every account otherwise.
 */
export async function resolveAccount(client: CustodyClient, reference: AccountReference, options?: CallOptions): Promise<Account> {
  if (typeof reference === "number") return accountById(client, reference, options);
  const explicit = explicitAccountId(reference);
  if (explicit !== undefined) return accountById(client, explicit, options);
  const id = asAccountId(reference);
  const [named, byId] = await Promise.all([
    accountNamed(client, reference, id !== undefined, options),
    id === undefined ? undefined : unlessNotFound(client.getAccount(id, options)),
  ]);
  if (named.account && byId && named.account.id !== byId.id) {
    throw new AccountNotFoundError(
      reference,
      `${JSON.stringify(reference)} is ambiguous: it is the id of account ` +
        `${delimitUntrusted("account.name", byId.name)} (id ${byId.id}) and the exact name of account ` +
        `${named.account.id}; ` +
        `to mean the account with id ${byId.id}, give "#${byId.id}"; to mean the account named ${JSON.stringify(reference)}, give "#${named.account.id}"`,
    );
  }
  if (named.account) return named.account;
  if (byId) return byId;
  if (id !== undefined) throw new AccountNotFoundError(reference, `no account has the id ${id} or the name ${JSON.stringify(reference)}`);
  const accounts = named.listing ?? [];
  const near = nearNames(
    reference,
    accounts.map((account) => account.name),
  ).flatMap((name) => accounts.filter((account) => account.name === name));
  const hint = near.length > 0 ? `; did you mean ${near.map((a) => `${delimitUntrusted("account.name", a.name)} (id ${a.id})`).join(", ")}?` : "";
  throw new AccountNotFoundError(reference, `no account is named ${JSON.stringify(reference)}${hint}`);
}
