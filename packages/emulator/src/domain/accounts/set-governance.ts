import type { AccountGovernance } from "@custody/shared";
import type { Tx } from "../../context.js";
import { badRequest } from "../domain-error.js";
import type { AccountRow } from "../../store/state-types.js";
import { requireAccount } from "../lookups.js";

function whitelistOf(governance: AccountGovernance): string {
  return JSON.stringify(governance.smart_contract?.whitelist ?? null);
}

/** Replaces the account's governance rules (an administrator's edit; the control plane). */
export function setGovernance(tx: Tx, accountId: number, governance: AccountGovernance): AccountRow {
  const account = requireAccount(tx, accountId);
  if (governance.staking !== null && account.network !== "Solana") {
    throw badRequest(`staking: the staking rule applies to guided Solana staking only; account ${account.id} is a ${account.network} account`);
  }
  if (governance.smart_contract !== null && account.network !== "Ethereum") {
    throw badRequest(`smart_contract: the smart-contract rule applies to Ethereum accounts only; account ${account.id} is a ${account.network} account`);
  }
  const next = { ...account, governance };
  tx.put("accounts", account.id, next);
  tx.emit({ kind: "EDIT_ACCOUNT", at_ms: tx.now, data: { account_id: account.id, name: account.name } });
  if (whitelistOf(account.governance) !== whitelistOf(governance)) {
    tx.emit({ kind: "EDIT_WHITELIST", at_ms: tx.now, data: { account_id: account.id, whitelist: governance.smart_contract?.whitelist ?? [] } });
  }
  return next;
}
