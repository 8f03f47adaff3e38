import { describe, it } from "vitest";
import { checkEthereumStake, Currency, type EthereumStakeInput } from "../../src/index.js";
import { expectFindings, type Expected } from "./finding-table.js";

const ETH = Currency.parse({ name: "ethereum", units: [{ code: "wei", magnitude: 0 }, { code: "ETH", magnitude: 18 }, { code: "gwei", magnitude: 9 }] });
const ONLY_BASE = Currency.parse({ name: "odd", units: [{ code: "wei", magnitude: 0 }] });
const MINIMUM = 32_000_000_000_000_000_000n;
const CONTRACT = "0x00000000219ab540356cBB839Cbe05303d7705Fa";
const CALL_DATA = "0x22895118" + "ab".repeat(32);

const good: EthereumStakeInput = {
  balance: MINIMUM,
  currency: ETH,
  recipient: CONTRACT,
  contractData: CALL_DATA,
  amount: MINIMUM - 1_000_000_000_000_000n,
  maxFees: 1_000_000_000_000_000n,
  availableBalance: MINIMUM,
  whitelist: [CONTRACT.toLowerCase()],
};

const OK: Expected = [
  ["ETHEREUM_STAKE_BALANCE_OK", "info"],
  ["ETHEREUM_STAKE_RECIPIENT_OK", "info"],
  ["ETHEREUM_STAKE_WHITELISTED_OK", "info"],
  ["ETHEREUM_STAKE_CALL_DATA_OK", "info"],
  ["ETHEREUM_STAKE_AMOUNT_OK", "info"],
  ["ETHEREUM_STAKE_BALANCE_OK", "info"],
];
const replace = (index: number, code: string, severity: "block" | "warn" | "info"): Expected => OK.map((entry, at) => (at === index ? [code, severity] : entry));
const CALL_DATA_INVALID = replace(3, "ETHEREUM_STAKE_CALL_DATA_INVALID", "block");

describe("checkEthereumStake", () => {
  it.each<[string, Partial<EthereumStakeInput>, Expected, string[]]>([
    ["a stake as the spec describes it, whitelist in another letter case", {}, OK, []],
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
      replace(0, "ETHEREUM_STAKE_DISPLAY_UNIT_MISSING", "block"),
      ["currency.units", "index 1"],
    ],
    [
      "a recipient that is not an address",
      { recipient: "0x1234" },
      [OK[0]!, ["ETHEREUM_STAKE_RECIPIENT_NOT_ADDRESS", "block"], ...OK.slice(3)],
      ["recipient", "0x1234"],
    ],
    [
      "a recipient without 0x",
      { recipient: CONTRACT.slice(2) },
      [OK[0]!, ["ETHEREUM_STAKE_RECIPIENT_NOT_ADDRESS", "block"], ...OK.slice(3)],
      ["recipient"],
    ],
    [
      "the zero address",
      { recipient: `0x${"0".repeat(40)}`, whitelist: [`0x${"0".repeat(40)}`] },
      [OK[0]!, ["ETHEREUM_STAKE_RECIPIENT_ZERO_ADDRESS", "block"], ...OK.slice(3)],
      ["recipient", "zero address"],
    ],
    [
      "a recipient not on the whitelist",
      { whitelist: ["0x1111111111111111111111111111111111111111"] },
      replace(2, "ETHEREUM_STAKE_RECIPIENT_NOT_WHITELISTED", "block"),
      ["recipient", "whitelist", CONTRACT],
    ],
    [
      "an empty whitelist",
      { whitelist: [] },
      replace(2, "ETHEREUM_STAKE_RECIPIENT_NOT_WHITELISTED", "block"),
      ["recipient", "whitelist is empty"],
    ],
    [
      "no whitelist known",
      { whitelist: undefined },
      replace(2, "ETHEREUM_STAKE_WHITELIST_UNKNOWN", "warn"),
      ["recipient", "whitelist"],
    ],
    ["empty call data", { contractData: "" }, CALL_DATA_INVALID, ["coin_fields.contract_interaction.contract_data", "is empty"]],
    ["call data of only 0x", { contractData: "0x" }, CALL_DATA_INVALID, ["contract_data", "is empty"]],
    ["call data with a non-hex digit", { contractData: "0x2289511g" }, CALL_DATA_INVALID, ["contract_data", "other than hex digits"]],
    ["call data with an odd number of digits", { contractData: "0x228951180" }, CALL_DATA_INVALID, ["contract_data", "odd number"]],
    ["call data shorter than a selector", { contractData: "0x228951" }, CALL_DATA_INVALID, ["contract_data", "4-byte"]],
    [
      "amount + max_fees one wei over available",
      { availableBalance: MINIMUM - 1n },
      replace(5, "ETHEREUM_STAKE_EXCEEDS_AVAILABLE", "block"),
      ["amount", "max_fees", "available_balance", "31999999999999999999"],
    ],
    ["zero amount", { amount: 0n }, replace(4, "ETHEREUM_STAKE_AMOUNT_NOT_POSITIVE", "block"), ["amount"]],
  ])("%s", (_name, change, expected, fields) => {
    expectFindings(checkEthereumStake({ ...good, ...change }), expected, fields);
  });
});
