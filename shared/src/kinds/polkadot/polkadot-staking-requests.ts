import type { PolkadotStakingType } from "../../schemas/coin-fields-request.js";
import type { Currency } from "../../schemas/currency.js";
import type { Note } from "../../schemas/primitives.js";
import { TransactionRequest } from "../../schemas/transaction-request.js";
import { baseUnit } from "../../units/currency-units.js";
import { amountObject, nullAmountObject } from "../kit/amount-object.js";
import { INPUT_LIMITS } from "../../schemas/input-limits.js";
import { amountIssue, checkedBody, formatIssue, throwIfIssues } from "../kit/builder-validation.js";
import { noteField } from "../kit/note-copy.js";

export interface PolkadotStakingInput {
  account_name: string;
  currency: Currency;
  note?: Note;
}

export interface PolkadotAmountInput extends PolkadotStakingInput {
  /** Base units, positive. Check it against the balance the operation draws on first (spec, usage rule 4). */
  amount: bigint;
}

export interface SetPayeeInput extends PolkadotStakingInput {
  /** The new rewards destination, e.g. Staked or Stash. */
  payee: string;
}

/** Polkadot staking goes through POST /transactions with these fixed values (spec, usage rule 2). */
export const POLKADOT_STAKING_RECIPIENT = "";
export const POLKADOT_STAKING_SPEED = "CUSTOM";
export const POLKADOT_STAKING_MAX_FEES = 0n;

function build(type: PolkadotStakingType, input: PolkadotStakingInput, amount: bigint | null, payee?: string): TransactionRequest {
  const subject = `Polkadot ${type} request (POST /transactions)`;
  const unit = baseUnit(input.currency).code;
  return checkedBody(subject, TransactionRequest, {
    account_name: input.account_name,
    amount: amount === null ? nullAmountObject(unit) : amountObject(amount, unit),
    max_fees: amountObject(POLKADOT_STAKING_MAX_FEES, unit),
    recipient: POLKADOT_STAKING_RECIPIENT,
    speed: POLKADOT_STAKING_SPEED,
    coin_fields: type === "SETPAYEE" ? { type, payee: payee ?? "" } : { type },
    ...noteField(input.note),
  });
}

/** BONDEXTRA, UNBOND or REBOND: the operation's body with a positive amount. */
export function buildPolkadotAmountRequest(type: "BONDEXTRA" | "UNBOND" | "REBOND", input: PolkadotAmountInput): TransactionRequest {
  throwIfIssues(`Polkadot ${type} request (POST /transactions)`, [amountIssue("amount", input.amount, "positive")]);
  return build(type, input, input.amount);
}

/** BONDEXTRA: moves available funds to bonded. */
export function buildBondExtraRequest(input: PolkadotAmountInput): TransactionRequest {
  return buildPolkadotAmountRequest("BONDEXTRA", input);
}

/** UNBOND: moves bonded funds to unbonding (unbonded after 28 days). */
export function buildUnbondRequest(input: PolkadotAmountInput): TransactionRequest {
  return buildPolkadotAmountRequest("UNBOND", input);
}

/** REBOND: moves unbonding or unbonded funds back to bonded. */
export function buildRebondRequest(input: PolkadotAmountInput): TransactionRequest {
  return buildPolkadotAmountRequest("REBOND", input);
}

/** WITHDRAWUNBONDED: moves unbonded funds to available; no amount applies. */
export function buildWithdrawUnbondedRequest(input: PolkadotStakingInput): TransactionRequest {
  return build("WITHDRAWUNBONDED", input, null);
}

/** SETPAYEE: changes the rewards destination; no amount applies. */
export function buildSetPayeeRequest(input: SetPayeeInput): TransactionRequest {
  throwIfIssues("Polkadot SETPAYEE request (POST /transactions)", [
    formatIssue("payee", input.payee, /^\S+$/, "must name a rewards destination such as Staked or Stash", INPUT_LIMITS.payee),
  ]);
  return build("SETPAYEE", input, null, input.payee);
}
