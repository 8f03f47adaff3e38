import { z } from "zod";
import { sameAddress } from "../../schemas/address-format.js";
import { Network } from "../../schemas/account.js";
import type { Transaction } from "../../schemas/transaction.js";
import { contractDataOf, operationOf } from "../../holdings/unfinished-transactions.js";

/**
 * What a transaction must show to be a given write, every field a plain value: kept in the guard's
 * store with the write before its POST, so that any process can still recognise it after the one
 * that sent it stopped. Amounts are base units as decimal strings.
 */
export const ExpectedTransaction = z.object({
  /** The operation: a Polkadot staking type, or the transaction type (one of these). */
  operations: z.array(z.string()).min(1).optional(),
  amount: z
    .string()
    .regex(/^[0-9]{1,80}$/)
    .optional(),
  recipient: z.object({ network: Network, address: z.string() }).optional(),
  stake_account: z.string().optional(),
  validator: z.string().optional(),
  /** Contract call data, hex. */
  contract_data: z.string().optional(),
  /** A Polkadot rewards destination. */
  payee: z.string().optional(),
});
export type ExpectedTransaction = z.infer<typeof ExpectedTransaction>;

/** The transaction's stake account and validator, where its coin_fields name them. */
function txParameters(tx: Transaction): { stake_account?: unknown; validator_address?: unknown } {
  return (tx.coin_fields as { tx_parameters?: { stake_account?: unknown; validator_address?: unknown } } | null)?.tx_parameters ?? {};
}

/**
 * The version of intentKey and of what it reads (operationOf): saved windows keep keys across builds
 * (guard-store/saved-windows.ts), so a change to either must change this, or a newer build sharing a
 * store with an older one would look up an identical write under a key the older one never wrote.
 */
export const INTENT_KEY_SCHEME = 1;

/**
 * The operation and the amount as one key: the two fields transactionDifferences compares without
 * exception when a write names them, so a transaction whose key is not among the write's
 * (intentKeysOf) is never that write, and candidates can be looked up by it.
 */
function intentKey(operation: string, amount: bigint | string): string {
  return `${operation} ${amount}`;
}

export function intentKeyOf(tx: Transaction): string {
  return intentKey(operationOf(tx), tx.amount);
}

/** The keys a transaction identical to the write has, one per operation it may show; null when the write does not name both. */
export function intentKeysOf(expected: ExpectedTransaction): string[] | null {
  const { operations, amount } = expected;
  return operations === undefined || amount === undefined ? null : operations.map((operation) => intentKey(operation, BigInt(amount)));
}

/** How the keys of a transaction identical to the write start, one per operation it may show (of any amount); null when it names none. */
export function intentKeyStartsOf(expected: ExpectedTransaction): string[] | null {
  return expected.operations?.map((operation) => `${operation} `) ?? null;
}

/** The fields of a candidate that differ from what a write asked, each named with both values (empty: it is this write). */
export function transactionDifferences(expected: ExpectedTransaction, tx: Transaction): string[] {
  const differences: string[] = [];
  const operation = operationOf(tx);
  if (expected.operations !== undefined && !expected.operations.includes(operation))
    differences.push(`type ${operation} (asked ${expected.operations.join(" or ")})`);
  const parameters = txParameters(tx);
  if (expected.stake_account !== undefined && parameters.stake_account !== undefined && parameters.stake_account !== expected.stake_account) {
    differences.push(`stake account ${String(parameters.stake_account)} (asked ${expected.stake_account})`);
  }
  if (expected.amount !== undefined && tx.amount !== BigInt(expected.amount)) differences.push(`amount ${tx.amount} (asked ${expected.amount})`);
  if (expected.recipient !== undefined && !sameAddress(expected.recipient.network, tx.recipient, expected.recipient.address)) {
    differences.push(`recipient ${tx.recipient} (asked ${expected.recipient.address})`);
  }
  if (expected.validator !== undefined) {
    const actual = parameters.validator_address ?? tx.recipient;
    if (actual !== expected.validator) differences.push(`validator ${String(actual)} (asked ${expected.validator})`);
  }
  const data = contractDataOf(tx);
  // Hex in any letter case; a transaction that does not show its call data is not compared.
  if (expected.contract_data !== undefined && data !== undefined && data.toLowerCase() !== expected.contract_data.toLowerCase()) {
    differences.push(`contract data ${data} (asked ${expected.contract_data})`);
  }
  const payee = (tx.coin_fields as { payee?: unknown } | null)?.payee;
  // A transaction that does not show a rewards destination is not compared.
  if (expected.payee !== undefined && typeof payee === "string" && payee !== expected.payee) differences.push(`payee ${payee} (asked ${expected.payee})`);
  return differences;
}

/**
 * How a write whose answer was lost is recognised among the workspace's transactions, comparing
 * the whole request (`expected`):
 *  - reference: the body's note carries the correlation reference (a label search finds it);
 *  - new_transactions: no note; candidates are the account's transactions newer than a watermark
 *    taken before the write was reserved, created by this operator;
 *  - approval: this operator's approval on the transaction's governance request.
 */
export const LostAnswer = z.discriminatedUnion("by", [
  z.object({ by: z.literal("reference"), expected: ExpectedTransaction }),
  z.object({ by: z.literal("new_transactions"), expected: ExpectedTransaction }),
  z.object({ by: z.literal("approval"), transaction_id: z.int().positive(), request_id: z.int() }),
]);
export type LostAnswer = z.infer<typeof LostAnswer>;

/**
 * What the guard's store keeps with a write before its POST, so any process can look it up: its account,
 * how it is recognised, and for calls without a note the newest transaction before it.
 */
export const WriteRecognition = z.object({
  account_id: z.int().positive(),
  lost: LostAnswer,
  /** The newest transaction id on the account read before the write was reserved (new_transactions only). */
  watermark: z.int().nonnegative().nullable(),
});
export type WriteRecognition = z.infer<typeof WriteRecognition>;
