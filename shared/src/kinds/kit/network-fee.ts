import type { Account } from "../../schemas/account.js";
import { accountNetwork } from "../../schemas/account.js";
import type { Currency } from "../../schemas/currency.js";
import type { FeeEstimateRequest } from "../../schemas/fee-estimate.js";
import { Speed } from "../../schemas/transaction-request.js";
import type { Transaction } from "../../schemas/transaction.js";
import { baseUnit } from "../../units/currency-units.js";
import { contractDataOf, operationOf } from "../../holdings/unfinished-transactions.js";
import type { PlanContext } from "./plan-context.js";

/** The network fee the service estimates for a write, or why there is none. */
export type NetworkFee = { estimated: bigint } | { unknown: string };

/**
 * The service's fee estimate for a would-be request. A confirmation does not ask again: the person
 * decided on the dry run's figure, and a failed estimate is said, never a block (the fee cap, where
 * there is one, is what the person agreed to pay at most).
 */
export async function networkFee(ctx: PlanContext, body: FeeEstimateRequest | null, confirming: boolean): Promise<NetworkFee> {
  if (confirming) return { unknown: "not estimated again at the confirmation (the dry run showed it)" };
  if (body === null) return { unknown: "the request could not be built" };
  try {
    return { estimated: (await ctx.client.estimateFees(body, { signal: ctx.signal })).fees };
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    return { unknown: `the fee estimate failed (${(error as Error).message})` };
  }
}

/**
 * What the fee estimate is asked for a call that is not a POST /transactions of its own (a Solana
 * stake action): a send of the same amount from the account at NORMAL speed, the only speed the
 * stake endpoints use. Both pay Solana's per-signature fee; the spec gives stake calls no estimate.
 */
export function sendShapedProbe(account: Account, currency: Currency, amount: bigint, recipient: string): FeeEstimateRequest {
  return {
    account_name: account.name,
    amount: { value: amount.toString(), unit: baseUnit(currency).code },
    recipient,
    speed: "NORMAL",
    ...(accountNetwork(account) === "Ethereum" ? {} : { coin_fields: { type: "SEND" as const } }),
  };
}

const POLKADOT_STAKING = new Set(["BONDEXTRA", "UNBOND", "REBOND", "WITHDRAWUNBONDED", "SETPAYEE"]);

/** The estimate request of a transaction already created (an approval's): its own operation, amount and speed. */
export function transactionProbe(account: Account, currency: Currency, tx: Transaction): FeeEstimateRequest {
  const operation = operationOf(tx);
  const unit = baseUnit(currency).code;
  const speed = Speed.catch("NORMAL").parse(tx.speed);
  if (POLKADOT_STAKING.has(operation)) {
    const coinFields =
      operation === "SETPAYEE"
        ? { type: "SETPAYEE" as const, payee: String((tx.coin_fields as { payee?: unknown } | null)?.payee ?? "Staked") }
        : { type: operation as "BONDEXTRA" };
    return {
      account_name: account.name,
      amount: { value: tx.amount.toString(), unit },
      max_fees: { value: "0", unit },
      recipient: "",
      speed: "CUSTOM",
      coin_fields: coinFields,
    };
  }
  const contractData = contractDataOf(tx);
  if (contractData !== undefined) {
    return {
      account_name: account.name,
      amount: tx.amount.toString(),
      recipient: tx.recipient,
      speed,
      coin_fields: { contract_interaction: { contract_data: contractData } },
    };
  }
  return { ...sendShapedProbe(account, currency, tx.amount, tx.recipient || account.address), speed };
}
