import type { Tx } from "../../context.js";
import { conflict } from "../domain-error.js";
import type { AccountRow } from "../../store/state-types.js";
import { findAccountsByName, requireAccount } from "../lookups.js";

/** Renames the account (an administrator's edit; the control plane). A name in use is refused unless allowed. */
export function renameAccount(tx: Tx, accountId: number, name: string, allowDuplicateName: boolean): AccountRow {
  const account = requireAccount(tx, accountId);
  const holders = findAccountsByName(tx, name).filter((other) => other.id !== account.id);
  if (holders.length > 0 && !allowDuplicateName) {
    throw conflict("AccountExists", `name: account ${holders.map((other) => other.id).join(", ")} is named ${JSON.stringify(name)} already`);
  }
  const next = { ...account, name };
  tx.put("accounts", account.id, next);
  tx.emit({ kind: "EDIT_ACCOUNT", at_ms: tx.now, data: { account_id: account.id, name } });
  return next;
}
