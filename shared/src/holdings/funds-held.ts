import type { Transaction } from "../schemas/transaction.js";
import { operationOf } from "./unfinished-transactions.js";

/** Transactions that take their amount out of the account: it is held from creation until broadcast or end. */
const AMOUNT_HELD = new Set(["SEND", "EXECUTE_CONTRACT", "DEPLOY_CONTRACT", "STAKE_CREATE_DELEGATE"]);
const POLKADOT_STAKING = new Set(["BOND", "BONDEXTRA", "UNBOND", "REBOND", "WITHDRAWUNBONDED", "SETPAYEE"]);

/**
 * What an unfinished transaction holds out of the account's available balance until it is
 * broadcast or ends: a send, a contract call or a new Solana stake its amount and fee cap; any
 * other Solana stake action its fee cap; a Polkadot staking operation nothing (it moves funds
 * between the account's own balances when broadcast, counted apart as in flight).
 */
export function fundsHeld(tx: Transaction): bigint {
  const operation = operationOf(tx);
  if (POLKADOT_STAKING.has(operation)) return 0n;
  if (AMOUNT_HELD.has(operation)) return tx.amount + tx.max_fees;
  return tx.max_fees;
}
