import type { PolkadotBalances } from "../../schemas/polkadot-coin-fields.js";
import type { Transaction } from "../../schemas/transaction.js";
import { operationOf } from "../../holdings/unfinished-transactions.js";

/** The Polkadot balances a write can draw on (Usage rules, point 4). */
export type PolkadotBalance = "available" | "bonded" | "unbonding_and_unbonded";

/** How the balance is named in messages. */
export const POLKADOT_BALANCE_NAMES: Record<PolkadotBalance, string> = {
  available: "balances.available",
  bonded: "balances.bonded",
  unbonding_and_unbonded: "balances.total_unbonding + balances.total_unbonded",
};

export function polkadotBalanceValue(balance: PolkadotBalance, balances: PolkadotBalances): bigint {
  if (balance === "available") return balances.available;
  if (balance === "bonded") return balances.bonded;
  return balances.total_unbonding + balances.total_unbonded;
}

/** The Polkadot writes that move an amount: their operation, the one balance each draws on, and the one it adds to. */
export const POLKADOT_AMOUNT_OPERATIONS = {
  polkadot_bond_extra: { type: "BONDEXTRA", draws: "available", credits: "bonded" },
  polkadot_unbond: { type: "UNBOND", draws: "bonded", credits: "unbonding" },
  polkadot_rebond: { type: "REBOND", draws: "unbonding_and_unbonded", credits: "bonded" },
} as const satisfies Record<string, { type: "BONDEXTRA" | "UNBOND" | "REBOND"; draws: PolkadotBalance; credits: "bonded" | "unbonding" }>;

/** How the balance an operation adds to is named, and its value. */
export const POLKADOT_CREDITED = {
  bonded: { name: "balances.bonded", value: (balances: PolkadotBalances) => balances.bonded },
  unbonding: { name: "balances.total_unbonding", value: (balances: PolkadotBalances) => balances.total_unbonding },
} as const;

/**
 * The one definition of what each Polkadot staking operation draws on once broadcast, and how
 * much: a BONDEXTRA takes its amount and fee cap from the available balance, an UNBOND its amount
 * from the bonded one, a REBOND its amount from the unbonding and unbonded funds, and a
 * WITHDRAWUNBONDED every unbonded fund from them. Unfinished sends are not listed: the service
 * already holds them out of the available balance (docs/spec-decisions.md).
 */
const DRAWS: Record<string, { balance: PolkadotBalance; draws(tx: Transaction, totalUnbonded: bigint): bigint }> = {
  BONDEXTRA: { balance: POLKADOT_AMOUNT_OPERATIONS.polkadot_bond_extra.draws, draws: (tx) => tx.amount + tx.max_fees },
  UNBOND: { balance: POLKADOT_AMOUNT_OPERATIONS.polkadot_unbond.draws, draws: (tx) => tx.amount },
  REBOND: { balance: POLKADOT_AMOUNT_OPERATIONS.polkadot_rebond.draws, draws: (tx) => tx.amount },
  WITHDRAWUNBONDED: { balance: "unbonding_and_unbonded", draws: (_tx, totalUnbonded) => totalUnbonded },
};

/** What an unfinished transaction will take from the balance when broadcast; undefined when it draws on another. */
export function polkadotDraws(balance: PolkadotBalance, tx: Transaction, totalUnbonded = 0n): bigint | undefined {
  const entry = DRAWS[operationOf(tx)];
  return entry?.balance === balance ? entry.draws(tx, totalUnbonded) : undefined;
}
