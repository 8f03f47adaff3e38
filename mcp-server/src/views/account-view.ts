import {
  delimitUntrusted,
  describeAmount,
  describeRule,
  formatAmount,
  isPolkadotAccount,
  momentText,
  sanitizeUntrustedText,
  unbondingChunks,
  type Account,
  type Currency,
  type PolkadotBalances,
} from "@custody/shared";
import { z } from "zod";
import { AmountView, Entity } from "./view-schemas.js";
import { recordView } from "./workspace-view.js";

/** An account in a list. */
export const AccountSummary = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  currency: z.string(),
  address: z.string(),
  balance: AmountView,
  available_balance: AmountView,
});

/** A whole account: the spec's fields, amounts in both units; coin_fields and governance_rules the network's and the workspace's own. */
export const AccountView = z.looseObject({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  balance: AmountView,
  available_balance: AmountView,
  currency: z.string(),
  type: z.string(),
  coin_fields: Entity,
  governance_rules: Entity.optional(),
});

/** An account's balances (GET .../balance), amounts in both units; a Polkadot account's with its balances dated. */
export const BalanceView = z.looseObject({
  balance: AmountView,
  available_balance: AmountView,
  staked_balance: AmountView.optional(),
  balances: Entity.optional(),
});

/** The fields of an account a list shows, amounts in both units. */
export function accountSummary(account: Account, currency: Currency): z.infer<typeof AccountSummary> {
  return {
    id: account.id,
    name: sanitizeUntrustedText(account.name),
    type: sanitizeUntrustedText(account.type),
    currency: account.currency,
    address: sanitizeUntrustedText(account.address),
    balance: formatAmount(account.balance, currency),
    available_balance: formatAmount(account.available_balance, currency),
  };
}

/**
 * Polkadot balances in both units, each unbonding chunk with its waiting time in seconds (the unit
 * in the name) and the moment it unlocks, dated from the service's now; unbonded chunks are
 * withdrawable now.
 */
export function polkadotBalancesView(balances: PolkadotBalances, currency: Currency, now: Date): Record<string, unknown> {
  const { unbonding, unbonded, ...rest } = balances;
  return {
    ...recordView(rest, currency),
    unbonding: unbondingChunks({ unbonding }, now).map((chunk) => ({
      amount: formatAmount(chunk.amount, currency),
      waiting_time_seconds: chunk.waiting_time_seconds,
      unlocks_at: chunk.unlocks_at.toISOString(),
    })),
    unbonded: unbonded.map((entry) => ({ amount: formatAmount(entry.amount, currency), withdrawable: true })),
  };
}

/** A whole account, amounts in both units; a Polkadot account's unbonding dated. */
export function accountView(account: Account, currency: Currency, now: Date): z.infer<typeof AccountView> {
  const view = recordView(account, currency) as z.infer<typeof AccountView>;
  if (!isPolkadotAccount(account)) return view;
  return { ...view, coin_fields: { ...view.coin_fields, balances: polkadotBalancesView(account.coin_fields.balances, currency, now) } };
}

/** "unbonding 200 DOT (...) unlocks 2026-11-29T20:31Z": each chunk with its date. */
export function unbondingText(balances: PolkadotBalances, currency: Currency, now: Date): string {
  const chunks = unbondingChunks(balances, now).map((chunk) => `${describeAmount(chunk.amount, currency)} unlocks ${momentText(chunk.unlocks_at)}`);
  return (
    `unbonding ${chunks.length === 0 ? describeAmount(0n, currency) : chunks.join(", ")}, ` +
    `unbonded (withdrawable) ${describeAmount(balances.total_unbonded, currency)}`
  );
}

/** One line of text: id, delimited name, balance and available balance; a Polkadot account's staking balances too, its unbonding dated. */
export function accountLine(account: Account, currency: Currency, now: Date): string {
  const line =
    `account ${account.id} ${delimitUntrusted("name", account.name)} ` +
    `(${account.currency}): balance ${describeAmount(account.balance, currency)}, ` +
    `available ${describeAmount(account.available_balance, currency)}`;
  if (!isPolkadotAccount(account)) return line;
  const balances = account.coin_fields.balances;
  return `${line}, bonded ${describeAmount(balances.bonded, currency)}, ${unbondingText(balances, currency, now)}`;
}

/** The account's governance rules in one line, who creates and who approves under each ("not reported" when the service gave none); names delimited. */
export function governanceText(account: Account): string {
  const rules = account.governance_rules;
  if (rules === undefined) return "Governance rules: not reported by the service.";
  const kinds = (["transaction", "staking", "smart_contract"] as const).map((kind) => {
    const rule = rules[kind];
    return `${kind}: ${rule === null ? "none (no request of this kind can be created)" : delimitUntrusted(`governance_rules.${kind}`, describeRule(rule))}`;
  });
  return `Governance rules: ${kinds.join("; ")}.`;
}
