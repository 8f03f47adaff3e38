import type { Tx } from "../../context.js";
import { badRequest } from "../domain-error.js";
import type { AccountRow } from "../../store/state-types.js";
import { requireAccount } from "../lookups.js";

/** Funds arriving from outside the workspace (control plane). */
export function deposit(tx: Tx, accountId: number, amount: bigint): AccountRow {
  if (amount <= 0n) throw badRequest(`amount: must be more than 0 base units, got ${amount}`);
  const account = requireAccount(tx, accountId);
  const next = { ...account, free: account.free + amount };
  tx.put("accounts", account.id, next);
  return next;
}
