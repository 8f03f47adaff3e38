import {
  canCreate,
  delimitUntrusted,
  displayAmountText as shown,
  formatAmount,
  memberNames,
  momentText,
  sanitizeUntrustedText,
  type Account,
  type AccountHoldings,
  type Currency,
  type RuleKind,
} from "@custody/shared";
import { z } from "zod";
import { AccountRef, AmountView } from "./view-schemas.js";

/** One account's holdings; what the account does not use is left out. */
export const HoldingsView = z.object({
  account: AccountRef,
  network: z.string().nullable(),
  currency: z.string(),
  balance: AmountView,
  available: AmountView,
  staked: AmountView.optional(),
  staked_in_balance: z.boolean().optional(),
  withdrawable: AmountView.optional(),
  total: AmountView.optional(),
  bonded: AmountView.optional(),
  unbonding: z.array(z.object({ amount: AmountView, unlocks_at: z.string(), waiting_time_seconds: z.number() })).optional(),
  stakes: z
    .array(z.object({ state: z.string(), count: z.number(), total: AmountView, uids: z.array(z.string()), withdrawable_at: z.string().optional() }))
    .optional(),
  positions: z.array(z.object({ id: z.string(), provider: z.string(), status: z.string(), amount: AmountView, rewards: AmountView })).optional(),
  below_balance: z
    .object({
      amount: AmountView,
      locked_by_staking: AmountView.optional(),
      holds: z.array(z.object({ transaction_id: z.number(), type: z.string(), status: z.string(), amount: AmountView })),
      unexplained: AmountView.optional(),
      listing_failure: z.string().optional(),
    })
    .optional(),
});

/** The sums of one currency's accounts. */
export const NetworkTotal = z.object({
  network: z.string(),
  currency: z.string(),
  accounts: z.number(),
  balance: AmountView,
  staked: AmountView,
  withdrawable: AmountView,
  total: AmountView,
});

/** Whether the account stakes anything, or has anything to withdraw. */
function staking(holdings: AccountHoldings): boolean {
  return holdings.staked > 0n || holdings.withdrawable > 0n || holdings.unbonding.length > 0;
}

/** One account's holdings, amounts in both units, dates in ISO 8601; what the account does not use is left out. */
export function holdingsView(holdings: AccountHoldings, currency: Currency): z.infer<typeof HoldingsView> {
  const amount = (value: bigint) => formatAmount(value, currency);
  const gap = holdings.below_balance;
  return {
    account: { id: holdings.account.id, name: sanitizeUntrustedText(holdings.account.name) },
    network: holdings.network,
    currency: currency.name,
    balance: amount(holdings.balance),
    available: amount(holdings.available),
    ...(staking(holdings)
      ? {
          staked: amount(holdings.staked),
          staked_in_balance: holdings.staked_in_balance,
          withdrawable: amount(holdings.withdrawable),
          total: amount(holdings.total),
        }
      : {}),
    ...(holdings.bonded === null || holdings.bonded === 0n ? {} : { bonded: amount(holdings.bonded) }),
    ...(holdings.unbonding.length === 0
      ? {}
      : {
          unbonding: holdings.unbonding.map((chunk) => ({
            amount: amount(chunk.amount),
            unlocks_at: chunk.unlocks_at.toISOString(),
            waiting_time_seconds: chunk.waiting_time_seconds,
          })),
        }),
    ...(holdings.stakes.length === 0
      ? {}
      : {
          stakes: holdings.stakes.map((group) => ({
            state: group.state,
            count: group.uids.length,
            total: amount(group.total),
            uids: group.uids,
            ...(group.withdrawable_at ? { withdrawable_at: group.withdrawable_at.toISOString() } : {}),
          })),
        }),
    ...(holdings.positions.length === 0
      ? {}
      : {
          positions: holdings.positions.map((position) => ({
            id: position.id,
            provider: sanitizeUntrustedText(position.provider),
            status: position.status,
            amount: amount(position.amount),
            rewards: amount(position.total_reward),
          })),
        }),
    ...(gap.gap === 0n
      ? {}
      : {
          below_balance: {
            amount: amount(gap.gap),
            ...(gap.locked_by_staking === 0n ? {} : { locked_by_staking: amount(gap.locked_by_staking) }),
            holds: gap.holds.map((hold) => ({ transaction_id: hold.transaction_id, type: hold.type, status: hold.status, amount: amount(hold.amount) })),
            ...(gap.unexplained === 0n ? {} : { unexplained: amount(gap.unexplained) }),
            ...(gap.listing_failure === null ? {} : { listing_failure: sanitizeUntrustedText(gap.listing_failure) }),
          },
        }),
  };
}

function gapText(holdings: AccountHoldings, currency: Currency): string {
  const gap = holdings.below_balance;
  if (gap.gap === 0n) return "";
  const parts = [
    gap.locked_by_staking > 0n ? `${shown(gap.locked_by_staking, currency)} locked by staking` : "",
    ...gap.holds.map((hold) => `${shown(hold.amount, currency)} held by transaction ${hold.transaction_id} (${hold.type} ${hold.status})`),
    gap.listing_failure === null ? "" : `the transactions holding funds could not be listed (${sanitizeUntrustedText(gap.listing_failure)})`,
    gap.unexplained !== 0n && gap.listing_failure === null
      ? `${shown(gap.unexplained < 0n ? -gap.unexplained : gap.unexplained, currency)} ` +
        `${gap.unexplained < 0n ? "more available than these explain" : "not explained by these"}`
      : "",
  ].filter((part) => part !== "");
  return ` Available is ${shown(gap.gap, currency)} below balance: ${parts.join("; ")}.`;
}

/**
 * Whether the account's rule of this kind lets the operator create the request: true, or who it
 * lets (false: none). An account whose rules the service did not report is taken as allowing it:
 * the dry run's governance check tells.
 */
function allowedTo(account: Account, kind: RuleKind, operator: string): true | string {
  const rules = account.governance_rules;
  if (rules === undefined) return true;
  const rule = rules[kind];
  if (rule !== null && canCreate(rule, operator)) return true;
  return rule === null ? `nobody (the account has no ${kind} rule)` : delimitUntrusted("creators", memberNames(rule.creators));
}

/** The tool that does it when the operator's rules let it, or who may and that this operator may not ("by staking-bot (API); not by you, treasury-bot"). */
function whoMay(account: Account, operator: string, tool: string): string {
  const allowed = allowedTo(account, "staking", operator);
  return allowed === true ? tool : `by ${allowed}; not by you, ${operator}`;
}

function stakingText(holdings: AccountHoldings, currency: Currency, operator: string): string {
  const parts: string[] = [];
  if (holdings.bonded !== null && staking(holdings)) {
    parts.push(`bonded ${shown(holdings.bonded, currency)} (inside the balance)`);
    for (const chunk of holdings.unbonding) parts.push(`unbonding ${shown(chunk.amount, currency)} unlocks ${momentText(chunk.unlocks_at)}`);
    if (holdings.withdrawable > 0n)
      parts.push(`withdrawable ${shown(holdings.withdrawable, currency)} (unbonded: ${whoMay(holdings.account, operator, "polkadot_withdraw_unbonded")})`);
  }
  for (const group of holdings.stakes) {
    const withdraw = whoMay(holdings.account, operator, "solana_withdraw_stake");
    const when =
      group.state === "deactivating" && group.withdrawable_at
        ? `, withdrawable from about ${momentText(group.withdrawable_at)} (${withdraw})`
        : group.state === "deactivated"
          ? `, withdrawable now (${withdraw})`
          : "";
    parts.push(`${group.uids.length} ${group.state} ${group.uids.length === 1 ? "stake" : "stakes"} ${shown(group.total, currency)}${when}`);
  }
  for (const position of holdings.positions)
    parts.push(`position ${position.id} ${delimitUntrusted("provider", position.provider)} ${position.status} ${shown(position.amount, currency)}`);
  if (parts.length === 0) return "";
  const outside = holdings.staked_in_balance || (holdings.stakes.length === 0 && holdings.positions.length === 0) ? "" : " (outside the balance)";
  return ` Staking${outside}: ${parts.join("; ")}.`;
}

/** One line of text for an account's holdings, display units (structuredContent has both); what the operator's rules let it withdraw. */
export function holdingsLine(holdings: AccountHoldings, currency: Currency, operator: string): string {
  const head =
    `${delimitUntrusted("name", holdings.account.name)} (${holdings.account.id}, ` +
    `${holdings.network ?? holdings.account.type}): balance ` +
    `${shown(holdings.balance, currency)}, available ` +
    `${shown(holdings.available, currency)}`;
  const staked = staking(holdings)
    ? `, staked ${shown(holdings.staked, currency)}, withdrawable ${shown(holdings.withdrawable, currency)}, total ${shown(holdings.total, currency)}`
    : "";
  return `${head}${staked}.${gapText(holdings, currency)}${stakingText(holdings, currency, operator)}`;
}

/**
 * Sums per currency: the accounts, their balances, available (and of it what the operator's
 * transaction rules let it send), staked, withdrawable and total.
 */
export function networkTotals(
  entries: readonly { holdings: AccountHoldings; currency: Currency }[],
  operator: string,
): { structured: z.infer<typeof NetworkTotal>[]; lines: string[] } {
  const byCurrency = new Map<
    string,
    {
      currency: Currency;
      network: string;
      accounts: number;
      balance: bigint;
      available: bigint;
      sendable: bigint;
      staked: bigint;
      withdrawable: bigint;
      total: bigint;
    }
  >();
  for (const { holdings, currency } of entries) {
    const sum = byCurrency.get(currency.name) ?? {
      currency,
      network: holdings.network ?? holdings.account.type,
      accounts: 0,
      balance: 0n,
      available: 0n,
      sendable: 0n,
      staked: 0n,
      withdrawable: 0n,
      total: 0n,
    };
    byCurrency.set(currency.name, {
      ...sum,
      accounts: sum.accounts + 1,
      balance: sum.balance + holdings.balance,
      available: sum.available + holdings.available,
      sendable: sum.sendable + (allowedTo(holdings.account, "transaction", operator) === true ? holdings.available : 0n),
      staked: sum.staked + holdings.staked,
      withdrawable: sum.withdrawable + holdings.withdrawable,
      total: sum.total + holdings.total,
    });
  }
  const sums = [...byCurrency.values()];
  const availableText = (sum: (typeof sums)[number]) =>
    `available ${shown(sum.available, sum.currency)}` +
    (sum.sendable === sum.available
      ? ""
      : ` (${operator} may send ${shown(sum.sendable, sum.currency)} of it: ` + "the rest is on accounts whose transaction rule does not name it a creator)");
  return {
    structured: sums.map((sum) => ({
      network: sum.network,
      currency: sum.currency.name,
      accounts: sum.accounts,
      balance: formatAmount(sum.balance, sum.currency),
      staked: formatAmount(sum.staked, sum.currency),
      withdrawable: formatAmount(sum.withdrawable, sum.currency),
      total: formatAmount(sum.total, sum.currency),
    })),
    lines: sums.map(
      (sum) =>
        `${sum.network} (${sum.currency.name}), ${sum.accounts} ` +
        `${sum.accounts === 1 ? "account" : "accounts"}: balance ` +
        `${shown(sum.balance, sum.currency)}, ${availableText(sum)}, staked ` +
        `${shown(sum.staked, sum.currency)}, withdrawable ` +
        `${shown(sum.withdrawable, sum.currency)}, total ${shown(sum.total, sum.currency)}`,
    ),
  };
}
