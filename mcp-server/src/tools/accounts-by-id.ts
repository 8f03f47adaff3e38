import type { Account } from "@custody/shared";
import type { ToolCall } from "./tool-definition.js";

/** The accounts of these ids, each read once (GET /accounts/{id}), for naming the accounts of listed transactions. */
export async function accountsById(call: Pick<ToolCall, "ctx" | "signal">, ids: Iterable<number>, known: readonly Account[] = []): Promise<Map<number, Account>> {
  const accounts = new Map(known.map((account) => [account.id, account]));
  const missing = [...new Set(ids)].filter((id) => !accounts.has(id));
  for (const account of await Promise.all(missing.map((id) => call.ctx.client.getAccount(id, { signal: call.signal })))) accounts.set(account.id, account);
  return accounts;
}
