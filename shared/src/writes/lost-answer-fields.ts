import { sameAddress } from "../schemas/address-format.js";
import type { Network } from "../schemas/account.js";
import type { Transaction } from "../schemas/transaction.js";
import { operationOf } from "../operations/unfinished-transactions.js";

/** The transaction's stake account and validator, where its coin_fields name them. */
function txParameters(tx: Transaction): { stake_account?: unknown; validator_address?: unknown } {
  return (tx.coin_fields as { tx_parameters?: { stake_account?: unknown; validator_address?: unknown } } | null)?.tx_parameters ?? {};
}

/** The fields of a candidate that differ from what a write asked, each named with both values. */
export class FieldComparison {
  readonly #differences: string[] = [];

  constructor(private readonly tx: Transaction) {}

  amount(expected: bigint): this {
    if (this.tx.amount !== expected) this.#differences.push(`amount ${this.tx.amount} (asked ${expected})`);
    return this;
  }

  recipient(network: Network, expected: string): this {
    if (!sameAddress(network, this.tx.recipient, expected)) this.#differences.push(`recipient ${this.tx.recipient} (asked ${expected})`);
    return this;
  }

  /** The operation: a Polkadot staking type, or the transaction type. */
  operation(expected: readonly string[]): this {
    const actual = operationOf(this.tx);
    if (!expected.includes(actual)) this.#differences.push(`type ${actual} (asked ${expected.join(" or ")})`);
    return this;
  }

  stakeAccount(expected: string): this {
    const actual = txParameters(this.tx).stake_account;
    if (actual !== undefined && actual !== expected) this.#differences.push(`stake account ${String(actual)} (asked ${expected})`);
    return this;
  }

  validator(expected: string): this {
    const actual = txParameters(this.tx).validator_address ?? this.tx.recipient;
    if (actual !== expected) this.#differences.push(`validator ${String(actual)} (asked ${expected})`);
    return this;
  }

  /** Contract call data, hex in any letter case; a transaction that does not show its call data is not compared. */
  contractData(expected: string): this {
    const actual = (this.tx.coin_fields as { contract_interaction?: { contract_data?: unknown } } | null)?.contract_interaction?.contract_data;
    if (typeof actual === "string" && actual.toLowerCase() !== expected.toLowerCase()) this.#differences.push(`contract data ${actual} (asked ${expected})`);
    return this;
  }

  /** A Polkadot rewards destination; a transaction that does not show one is not compared. */
  payee(expected: string): this {
    const actual = (this.tx.coin_fields as { payee?: unknown } | null)?.payee;
    if (typeof actual === "string" && actual !== expected) this.#differences.push(`payee ${actual} (asked ${expected})`);
    return this;
  }

  differences(): string[] {
    return this.#differences;
  }
}

export function compareFields(tx: Transaction): FieldComparison {
  return new FieldComparison(tx);
}
