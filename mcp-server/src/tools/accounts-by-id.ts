import { unlessNotFound, type Account } from "@custody/shared";
import type { ToolCall } from "../server/tool-call.js";

/** Reads at once at most: a page of 1,000 transactions may name as many accounts. */
const CONCURRENT_READS = 8;

/**
 * The accounts of these ids, each read once (GET /accounts/{id}), for naming the accounts of
 * listed transactions; an account the service no longer finds is left out (named by its id).
 */
export async function accountsById(
  call: Pick<ToolCall, "ctx" | "signal">,
  ids: Iterable<number>,
  known: readonly Account[] = [],
): Promise<Map<number, Account>> {
  const accounts = new Map(known.map((account) => [account.id, account]));
  const missing = [...new Set(ids)].filter((id) => !accounts.has(id));
  for (let start = 0; start < missing.length; start += CONCURRENT_READS) {
    const read = await Promise.all(
      missing.slice(start, start + CONCURRENT_READS).map((id) => unlessNotFound(call.ctx.client.getAccount(id, { signal: call.signal }))),
    );
    for (const account of read) if (account !== undefined) accounts.set(account.id, account);
  }
  return accounts;
}
