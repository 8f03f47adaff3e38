import { isEthereumAddress } from "../../schemas/address-format.js";
import type { Currency, CurrencyUnit } from "../../schemas/currency.js";
import { HexString } from "../../schemas/primitives.js";
import { checkAmountWithinAvailable } from "../kit/amount-within-available.js";
import { describeAmount } from "../../units/describe-amount.js";
import { burnAddressName } from "../kit/burn-address.js";
import { finding, type Finding } from "../../schemas/finding.js";
import { localText } from "../../l10n/translate.js";

export interface EthereumStakeInput {
  /** The account's balance (base units): it must hold at least 32 display units. */
  balance: bigint;
  /** The account's currency; units[1] is the display unit. */
  currency: Currency;
  /** The staking provider's contract address. */
  recipient: string;
  /** coin_fields.contract_interaction.contract_data. */
  contractData: string;
  amount: bigint;
  maxFees: bigint;
  availableBalance: bigint;
}

const STAKING_MINIMUM_UNITS = 32n;
const SELECTOR_HEX_DIGITS = 8;

/**
 * Ethereum staking through a provider's contract (Usage rules, point 3): the account holds at
 * least 32 ETH, the amount funds whole validators (a positive multiple of 32 ETH), the contract
 * and its call data are well formed, and amount plus max_fees fit the available balance. What the
 * guard allows a contract call to pay besides is checkContractCall's.
 */
export function checkEthereumStake(input: EthereumStakeInput): Finding[] {
  return [
    checkMinimumBalance(input.balance, input.currency),
    ...checkWholeValidators(input.amount, input.currency),
    ...checkRecipient(input.recipient),
    checkContractData(input.contractData),
    ...checkAmountWithinAvailable({
      prefix: "ETHEREUM_STAKE",
      fields: { amount: "amount", maxFees: "max_fees", availableBalance: "available_balance" },
      amount: input.amount,
      maxFees: input.maxFees,
      availableBalance: input.availableBalance,
    }),
  ];
}

function checkMinimumBalance(balance: bigint, currency: Currency): Finding {
  const display = currency.units[1];
  if (display === undefined) {
    return finding(
      "block",
      "ETHEREUM_STAKE_DISPLAY_UNIT_MISSING",
      localText("currency.units of {0} has no display unit at index 1, so the 32-unit staking minimum cannot be computed", currency.name),
      { currency: currency.name, balance },
    );
  }
  const minimum = thirtyTwoUnits(display);
  const facts = { balance, minimum, unit: display.code, magnitude: display.magnitude };
  if (balance < minimum) {
    return finding(
      "block",
      "ETHEREUM_STAKE_BALANCE_BELOW_MINIMUM",
      localText("balance {0} is below the Ethereum staking minimum of 32 {1} = {2} (base units)", String(balance), display.code, String(minimum)),
      facts,
    );
  }
  return finding(
    "info",
    "ETHEREUM_STAKE_MINIMUM_BALANCE_OK",
    localText("balance {0} is at least 32 {1} = {2} (base units)", String(balance), display.code, String(minimum)),
    facts,
  );
}

/** 32 display units (the deposit of one validator and the staking minimum) in base units. */
function thirtyTwoUnits(display: CurrencyUnit): bigint {
  return STAKING_MINIMUM_UNITS * 10n ** BigInt(display.magnitude);
}

/**
 * A deposit funds whole validators of 32 ETH each: any other amount (32 wei, 33 ETH) cannot be
 * deposited as asked. Without a display unit at index 1 the deposit size is unknown;
 * checkMinimumBalance already blocks that case, so this check yields nothing.
 */
function checkWholeValidators(amount: bigint, currency: Currency): Finding[] {
  const display = currency.units[1];
  if (display === undefined) return [];
  const deposit = thirtyTwoUnits(display);
  const validators = amount / deposit;
  const facts = { amount, validator_deposit: deposit, unit: display.code };
  if (amount <= 0n || amount % deposit !== 0n) {
    const shown = amount < 0n ? `${amount} (base units)` : describeAmount(amount, currency);
    const below = amount > 0n ? validators * deposit : 0n;
    const nearest = below > 0n ? `${describeAmount(below, currency)} or ${describeAmount(below + deposit, currency)}` : describeAmount(deposit, currency);
    return [
      finding(
        "block",
        "ETHEREUM_STAKE_AMOUNT_NOT_32_MULTIPLE",
        localText(
          "amount {0} is not a {1}whole multiple of 32 {2}: a staking deposit funds whole validators of 32 {2} each (nearest: {3})",
          shown,
          amount <= 0n ? "positive " : "",
          display.code,
          nearest,
        ),
        facts,
      ),
    ];
  }
  return [
    finding(
      "info",
      "ETHEREUM_STAKE_AMOUNT_32_MULTIPLE_OK",
      localText("amount {0} funds {1} validator(s) of 32 {2}", describeAmount(amount, currency), String(validators), display.code),
      { ...facts, validators },
    ),
  ];
}

function checkRecipient(recipient: string): Finding[] {
  const facts = { recipient };
  if (!isEthereumAddress(recipient)) {
    return [
      finding(
        "block",
        "ETHEREUM_STAKE_RECIPIENT_NOT_ADDRESS",
        localText(
          "recipient must be the staking contract's address: 0x then 40 hex digits (in mixed case, a valid EIP-55 checksum), got {0}",
          JSON.stringify(recipient),
        ),
        facts,
      ),
    ];
  }
  const burn = burnAddressName("Ethereum", recipient);
  if (burn !== undefined) {
    return [finding("block", "ETHEREUM_STAKE_RECIPIENT_ZERO_ADDRESS", localText("recipient {0} is {1}, not a staking contract", recipient, burn), facts)];
  }
  return [finding("info", "ETHEREUM_STAKE_RECIPIENT_OK", localText("recipient {0} is a 20-byte hex address", recipient), facts)];
}

function checkContractData(contractData: string): Finding {
  const digits = contractData.startsWith("0x") ? contractData.slice(2) : contractData;
  const facts = { contract_data_hex_digits: digits.length };
  const field = "coin_fields.contract_interaction.contract_data";
  let problem: string | undefined;
  if (digits.length === 0) problem = "is empty";
  else if (!/^[0-9a-fA-F]*$/.test(digits)) problem = "holds characters other than hex digits";
  else if (!HexString.safeParse(contractData).success) problem = `has an odd number of hex digits (${digits.length})`;
  else if (digits.length < SELECTOR_HEX_DIGITS) problem = `has ${digits.length / 2} byte(s), fewer than the 4-byte function selector`;
  if (problem !== undefined) {
    return finding(
      "block",
      "ETHEREUM_STAKE_CALL_DATA_INVALID",
      localText("{0} {1}: it must be hex-encoded call data (0x optional, an even number of digits, at least a 4-byte selector)", field, problem),
      facts,
    );
  }
  return finding("info", "ETHEREUM_STAKE_CALL_DATA_HEX_OK", localText("{0} is {1} bytes of hex call data", field, digits.length / 2), facts);
}
