import { accountNetwork, CustodyApiError, INPUT_LIMITS, resolveAccount, oneLineUntrusted, type Account, type Network } from "@custody/shared";
import type { ServerContext } from "../server/server-context.js";
import type { Candidate } from "./completion-result.js";

/** The accounts a completion offers from: one page of this many, the first the workspace lists. */
export const ACCOUNTS_OFFERED_FROM = 1000;

/**
 * Workspace text offered only when it shows as it is, on one line, and the argument takes it whole
 * (at most `max` characters): what a person picks must be what resolves.
 */
function shownAsIs(text: string, max: number): boolean {
  return text !== "" && text.length <= max && oneLineUntrusted(text) === text;
}

/**
 * How an account is named in a prompt argument: its exact name, or "#" and its id when the name
 * would not show as it is on one line (a hidden or control character, a line break or tab), is
 * longer than an argument takes, or is digits or "#" and digits (read as an id).
 */
function accountReference(account: Account): string {
  return shownAsIs(account.name, INPUT_LIMITS.account_name) && !/^#?[0-9]+$/.test(account.name) ? account.name : `#${account.id}`;
}

/** The accounts of a network (or all), matched on name and id: as references (prompts) or ids (resource templates). */
export async function accountCandidates(
  ctx: ServerContext,
  { network, as }: { network?: Network; as: "reference" | "id" },
  signal: AbortSignal,
): Promise<{ candidates: Candidate[]; more: boolean }> {
  const page = await ctx.client.listAccounts({ page: 1, page_size: ACCOUNTS_OFFERED_FROM }, { signal });
  const accounts = page.edges.map((edge) => edge.node).filter((account) => network === undefined || accountNetwork(account) === network);
  const candidates = accounts.map((account) => ({
    value: as === "id" ? String(account.id) : accountReference(account),
    keys: [account.name, String(account.id), `#${account.id}`],
  }));
  return { candidates, more: page.page_info.has_next_page };
}

/** The uids of a Solana account's stakes; none for an account the service does not have as a Solana one (it answers 404). */
export async function stakeCandidates(ctx: ServerContext, accountId: number, signal: AbortSignal): Promise<Candidate[]> {
  const stakes = await ctx.client.listSolanaStakes(accountId, { signal }).catch((error: unknown) => {
    if (error instanceof CustodyApiError && error.status === 404) return [];
    throw error;
  });
  return stakes.filter((stake) => shownAsIs(stake.uid, INPUT_LIMITS.stake_uid)).map((stake) => ({ value: stake.uid, keys: [stake.uid] }));
}

/**
 * Validators for a Solana delegation: those the local policy allows, then those the named
 * account's stakes already use (when the account resolves and the person may list its stakes).
 * The spec has no list of a network's validators.
 */
export async function validatorCandidates(ctx: ServerContext, account: string | undefined, mayListStakes: boolean, signal: AbortSignal): Promise<Candidate[]> {
  const allowed = (ctx.policy.allowed_validators ?? []).map((address) => ({ value: address, keys: [address] }));
  if (account === undefined || account.trim() === "" || !mayListStakes) return allowed;
  const named = await resolveAccount(ctx.client, account, { signal }).catch(() => undefined);
  if (named === undefined || accountNetwork(named) !== "Solana") return allowed;
  const stakes = await ctx.client.listSolanaStakes(named.id, { signal });
  const used = stakes.map((stake) => stake.blockchain_state.validator_address).filter((address) => shownAsIs(address, INPUT_LIMITS.address));
  return [...allowed, ...used.map((address) => ({ value: address, keys: [address] }))];
}
