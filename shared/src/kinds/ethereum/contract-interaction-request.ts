import type { z } from "zod";
import type { ContractAbiInputs } from "../../schemas/coin-fields-request.js";
import type { Currency } from "../../schemas/currency.js";
import type { Note } from "../../schemas/primitives.js";
import type { Speed } from "../../schemas/transaction-request.js";
import { TransactionRequest } from "../../schemas/transaction-request.js";
import { baseUnit } from "../../units/currency-units.js";
import { ETHEREUM_ADDRESS_RULE, isEthereumAddress } from "../../schemas/address-format.js";
import type { BaseUnitsRule } from "../kit/builder-validation.js";
import { amountIssue, checkedBody, formatIssue, throwIfIssues } from "../kit/builder-validation.js";
import { INPUT_LIMITS } from "../../schemas/input-limits.js";
import { amountObject } from "../kit/amount-object.js";
import { noteField } from "../kit/note-copy.js";

export interface ContractInteractionInput {
  account_name: string;
  /** The contract called; sent as the recipient. */
  contract_address: string;
  /** Hex-encoded call data: at least the 4-byte function selector. */
  contract_data: string;
  /** Base units of the native asset sent with the call. */
  amount: bigint;
  max_fees: bigint;
  speed: Speed;
  currency: Currency;
  /** Optional ABI-style inputs sent beside contract_data. */
  abi_inputs?: z.infer<typeof ContractAbiInputs>;
  note?: Note;
}

/** 0x optional, then at least 4 bytes (a function selector), whole bytes. */
const CALL_DATA = /^(0x)?([0-9a-fA-F]{2}){4,}$/;
const CALL_DATA_RULE = "must be hex-encoded call data of at least 4 bytes (the function selector), an even number of hex digits";

function build(subject: string, amountRule: BaseUnitsRule, input: ContractInteractionInput): TransactionRequest {
  throwIfIssues(subject, [
    formatIssue("contract_address", input.contract_address, isEthereumAddress, ETHEREUM_ADDRESS_RULE, INPUT_LIMITS.address),
    formatIssue("contract_data", input.contract_data, CALL_DATA, CALL_DATA_RULE, INPUT_LIMITS.contract_data),
    amountIssue("amount", input.amount, amountRule),
    amountIssue("max_fees", input.max_fees, "non-negative"),
  ]);
  const unit = baseUnit(input.currency).code;
  const { abi, function_name, arguments: args } = input.abi_inputs ?? {};
  return checkedBody(subject, TransactionRequest, {
    account_name: input.account_name,
    amount: amountObject(input.amount, unit),
    max_fees: amountObject(input.max_fees, unit),
    recipient: input.contract_address,
    speed: input.speed,
    coin_fields: {
      contract_interaction: {
        contract_data: input.contract_data,
        ...(abi === undefined ? {} : { abi }),
        ...(function_name === undefined ? {} : { function_name }),
        ...(args === undefined ? {} : { arguments: args }),
      },
    },
    ...noteField(input.note),
  });
}

/** The body of POST /transactions for an Ethereum smart-contract call; amount may be zero. */
export function buildContractInteractionRequest(input: ContractInteractionInput): TransactionRequest {
  return build("contract interaction request (POST /transactions)", "non-negative", input);
}

/**
 * Ethereum staking: a contract call to the staking provider's contract with the staked quantity
 * as amount (positive). The 32-unit minimum and the smart-contract rule are checked on the account, not here.
 */
export function buildEthereumStakingRequest(input: ContractInteractionInput): TransactionRequest {
  return build("Ethereum staking request (POST /transactions)", "positive", input);
}
