import type { AccountGovernance } from "@custody/shared";
import type { Tx } from "../../context.js";
import type { Hsm } from "../../hsm/hsm.js";
import { badRequest, conflict } from "../domain-error.js";
import type { AccountRow, NetworkName } from "../../store/state-types.js";
import { accountKeyId } from "../broadcast/sign-transaction.js";
import { findAccountByName, requireCurrency } from "../lookups.js";

export interface NewAccount {
  name: string;
  currency: string;
  governance: AccountGovernance;
  /** Let the account share its name with another (the spec does not say names are unique; clients must cope). */
  allowDuplicateName?: boolean;
}

const NETWORKS: readonly NetworkName[] = ["Solana", "Polkadot", "Ethereum"];

/** The network of a currency, from its `network` field. */
export function networkOfCurrency(currency: { name: string; network?: unknown }): NetworkName {
  const network = currency.network;
  if (typeof network === "string" && (NETWORKS as readonly string[]).includes(network)) return network as NetworkName;
  throw badRequest(`currency: ${currency.name} is not a currency of an emulated network (${NETWORKS.join(", ")})`);
}

/** A new, empty account whose key the HSM derives and whose address comes from that key. */
export function createAccount(tx: Tx, hsm: Hsm, input: NewAccount): AccountRow {
  if (!input.allowDuplicateName && findAccountByName(tx, input.name))
    throw conflict("AccountExists", `name: an account named ${JSON.stringify(input.name)} exists already`);
  const currency = requireCurrency(tx, input.currency);
  const network = networkOfCurrency(currency);
  const id = tx.nextId("account");
  const address = hsm.address(network, accountKeyId(id));
  const account: AccountRow = {
    id,
    name: input.name,
    network,
    currency: currency.name,
    index: 0,
    address,
    created_on_ms: tx.now,
    free: 0n,
    in_flight: 0n,
    polkadot:
      network === "Polkadot" ? { bonded: 0n, reserved: 0n, unbonding: [], rewards_destination: "Staked", controller_address: address, proxies: [] } : null,
    governance: input.governance,
  };
  tx.put("accounts", id, account);
  tx.emit({ kind: "CREATE_ACCOUNT", at_ms: tx.now, data: { account_id: id, name: account.name, currency: account.currency } });
  return account;
}
