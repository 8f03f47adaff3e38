import { z } from "zod";
import { AccountGovernance } from "./governance.js";
import { PolkadotCoinFields } from "./polkadot-coin-fields.js";
import { BaseUnitsString, pageOf } from "./primitives.js";

export const Network = z.enum(["Solana", "Polkadot", "Ethereum"]);
export type Network = z.infer<typeof Network>;

/** coin_fields of a non-Polkadot account: network-specific, not shown in the spec; kept as sent. */
export const OtherAccountCoinFields = z.looseObject({
  type: z.string().refine((type) => type !== "Polkadot", { message: "a Polkadot account's coin_fields must carry balances and staking" }),
});

export const AccountCoinFields = z.union([PolkadotCoinFields, OtherAccountCoinFields], {
  error: "must be the network's coin_fields object with its type (Polkadot: balances and staking)",
});
export type AccountCoinFields = z.infer<typeof AccountCoinFields>;

export const Account = z.looseObject({
  id: z.int(),
  name: z.string(),
  address: z.string(),
  balance: BaseUnitsString,
  available_balance: BaseUnitsString,
  currency: z.string(),
  type: z.string(),
  coin_fields: AccountCoinFields,
  /** The emulator's addition: the account's governance rules (see docs/spec-decisions.md). */
  governance_rules: AccountGovernance.optional(),
});
export type Account = z.infer<typeof Account>;
export type AccountWire = z.input<typeof Account>;

export const AccountPage = pageOf(Account);
export type AccountPage = z.infer<typeof AccountPage>;

export function isPolkadotAccount(account: Account): account is Account & { coin_fields: PolkadotCoinFields } {
  return account.coin_fields.type === "Polkadot";
}

/** The account's network, from its type or its coin_fields type; null for a network this toolkit does not handle. */
export function accountNetwork(account: Pick<Account, "type" | "coin_fields">): Network | null {
  for (const candidate of [account.type, account.coin_fields.type]) {
    const match = Network.options.find((network) => network.toLowerCase() === candidate.toLowerCase());
    if (match) return match;
  }
  return null;
}
