import { describe, expect, it } from "vitest";
import { checkEthereumStake, Currency, type EthereumStakeInput } from "../../../src/index.js";
import { expectFindings, type Expected } from "../kit/finding-table.js";

const ETH = Currency.parse({
  name: "ethereum",
  units: [
    { code: "wei", magnitude: 0 },
    { code: "ETH", magnitude: 18 },
    { code: "gwei", magnitude: 9 },
  ],
});
const ONLY_BASE = Currency.parse({ name: "odd", units: [{ code: "wei", magnitude: 0 }] });
const MINIMUM = 32_000_000_000_000_000_000n;
const CONTRACT = "0x00000000219ab540356cBB839Cbe05303d7705Fa";
const CALL_DATA = "0x22895118" + "ab".repeat(32);

const FEES = 1_000_000_000_000_000n;

const good: EthereumStakeInput = {
  balance: MINIMUM + FEES,
  currency: ETH,
  recipient: CONTRACT,
  contractData: CALL_DATA,
  amount: MINIMUM,
  maxFees: FEES,
  availableBalance: MINIMUM + FEES,
};

const OK: Expected = [
  ["ETHEREUM_STAKE_MINIMUM_BALANCE_OK", "info"],
  ["ETHEREUM_STAKE_AMOUNT_32_MULTIPLE_OK", "info"],
  ["ETHEREUM_STAKE_RECIPIENT_OK", "info"],
  ["ETHEREUM_STAKE_CALL_DATA_HEX_OK", "info"],
  ["ETHEREUM_STAKE_AMOUNT_OK", "info"],
  ["ETHEREUM_STAKE_BALANCE_OK", "info"],
];
const replace = (index: number, code: string, severity: "block" | "warn" | "info"): Expected =>
  OK.map((entry, at) => (at === index ? [code, severity] : entry));
const CALL_DATA_INVALID = replace(3, "ETHEREUM_STAKE_CALL_DATA_INVALID", "block");
const NOT_32_MULTIPLE = replace(1, "ETHEREUM_STAKE_AMOUNT_NOT_32_MULTIPLE", "block");

describe("checkEthereumStake", () => {
  it.each<[string, Partial<EthereumStakeInput>, Expected, string[]]>([
    ["a stake as the spec describes it", {}, OK, []],
    ["call data without 0x", { contractData: CALL_DATA.slice(2) }, OK, []],
    ["call data of just a selector", { contractData: "0x22895118" }, OK, []],
    ["a balance far above the minimum", { balance: 10n ** 30n }, OK, []],
    [
      "a balance one wei below 32 ETH",
      { balance: MINIMUM - 1n },
      replace(0, "ETHEREUM_STAKE_BALANCE_BELOW_MINIMUM", "block"),
      ["balance", "31999999999999999999", "32 ETH", "32000000000000000000"],
    ],
    [
      "a currency without a display unit",
      { currency: ONLY_BASE },
      [["ETHEREUM_STAKE_DISPLAY_UNIT_MISSING", "block"], ...OK.slice(2)],
      ["currency.units", "index 1"],
    ],
    [
      "a recipient that is not an address",
      { recipient: "0x1234" },
      [...OK.slice(0, 2), ["ETHEREUM_STAKE_RECIPIENT_NOT_ADDRESS", "block"], ...OK.slice(3)],
      ["recipient", "0x1234"],
    ],
    [
      "a recipient without 0x",
      { recipient: CONTRACT.slice(2) },
      [...OK.slice(0, 2), ["ETHEREUM_STAKE_RECIPIENT_NOT_ADDRESS", "block"], ...OK.slice(3)],
      ["recipient"],
    ],
    [
      "the zero address",
      { recipient: `0x${"0".repeat(40)}` },
      [...OK.slice(0, 2), ["ETHEREUM_STAKE_RECIPIENT_ZERO_ADDRESS", "block"], ...OK.slice(3)],
      ["recipient", "zero address"],
    ],
    ["empty call data", { contractData: "" }, CALL_DATA_INVALID, ["coin_fields.contract_interaction.contract_data", "is empty"]],
    ["call data of only 0x", { contractData: "0x" }, CALL_DATA_INVALID, ["contract_data", "is empty"]],
    ["call data with a non-hex digit", { contractData: "0x2289511g" }, CALL_DATA_INVALID, ["contract_data", "other than hex digits"]],
    ["call data with an odd number of digits", { contractData: "0x228951180" }, CALL_DATA_INVALID, ["contract_data", "odd number"]],
    ["call data shorter than a selector", { contractData: "0x228951" }, CALL_DATA_INVALID, ["contract_data", "4-byte"]],
    [
      "amount + max_fees one wei over available",
      { availableBalance: MINIMUM + FEES - 1n },
      replace(5, "ETHEREUM_STAKE_EXCEEDS_AVAILABLE", "block"),
      ["amount", "max_fees", "available_balance", "32000999999999999999"],
    ],
    [
      "zero amount",
      { amount: 0n },
      [OK[0]!, ["ETHEREUM_STAKE_AMOUNT_NOT_32_MULTIPLE", "block"], ...OK.slice(2, 4), ["ETHEREUM_STAKE_AMOUNT_NOT_POSITIVE", "block"], OK[5]!],
      ["amount"],
    ],
    // A deposit funds whole validators of 32 ETH: the review's 32 wei passed the dry run and was sent.
    [
      "32 wei",
      { amount: 32n },
      NOT_32_MULTIPLE,
      ["amount 0.000000000000000032 ETH (32 wei)", "whole multiple of 32 ETH", "whole validators", "nearest: 32 ETH (32000000000000000000 wei)"],
    ],
    ["32 ETH less one wei", { amount: MINIMUM - 1n }, NOT_32_MULTIPLE, ["31.999999999999999999 ETH", "nearest: 32 ETH"]],
    [
      "33 ETH",
      { amount: 33n * 10n ** 18n, balance: 10n ** 30n, availableBalance: 10n ** 30n },
      NOT_32_MULTIPLE,
      ["33 ETH (33000000000000000000 wei)", "nearest: 32 ETH (32000000000000000000 wei) or 64 ETH (64000000000000000000 wei)"],
    ],
    ["64 ETH, two validators", { amount: 2n * MINIMUM, balance: 10n ** 30n, availableBalance: 10n ** 30n }, OK, []],
    [
      "32 units of a display unit of another magnitude",
      {
        amount: 32n * 10n ** 6n,
        currency: Currency.parse({
          name: "x",
          units: [
            { code: "u", magnitude: 0 },
            { code: "X", magnitude: 6 },
          ],
        }),
      },
      OK,
      [],
    ],
  ])("%s", (_name, change, expected, fields) => {
    expectFindings(checkEthereumStake({ ...good, ...change }), expected, fields);
  });
});

describe("checkEthereumStake: whole validators", () => {
  it("says how many validators a multiple of 32 ETH funds", () => {
    const found = checkEthereumStake({ ...good, amount: 3n * MINIMUM, balance: 10n ** 30n, availableBalance: 10n ** 30n }).find(
      (item) => item.code === "ETHEREUM_STAKE_AMOUNT_32_MULTIPLE_OK",
    );
    expect(found?.message).toBe("amount 96 ETH (96000000000000000000 wei) funds 3 validator(s) of 32 ETH");
    expect(found?.facts).toMatchObject({ validators: "3", validator_deposit: "32000000000000000000" });
  });

  it("a zero amount is not a positive whole multiple of 32 ETH", () => {
    const found = checkEthereumStake({ ...good, amount: 0n }).find((item) => item.code === "ETHEREUM_STAKE_AMOUNT_NOT_32_MULTIPLE");
    expect(found?.message).toBe(
      "amount 0 ETH (0 wei) is not a positive whole multiple of 32 ETH: a staking deposit funds whole " +
        "validators of 32 ETH each (nearest: 32 ETH (32000000000000000000 wei))",
    );
  });
});
