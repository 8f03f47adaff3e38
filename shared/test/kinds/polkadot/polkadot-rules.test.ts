import { describe, expect, it } from "vitest";
import {
  checkPolkadotFixedValues,
  checkPolkadotOperation,
  PolkadotBalances,
  PolkadotStaking,
  TransactionRequest,
  type PolkadotOperation,
} from "../../../src/index.js";
import { block, expectFindings, info, type Expected } from "../kit/finding-table.js";

// As the service sends them: JSON integers (one above 2^53, given as digits by parseJsonExact).
const balancesWire = {
  available: 5_000_000_000,
  bonded: "9007199254740993",
  free: 20_000_000_000,
  reserved: 0,
  total: 20_000_000_000,
  frozen: 15_000_000_000,
  total_unbonded: 2_000_000_000,
  total_unbonding: 3_000_000_000,
  unbonded: [{ amount: 2_000_000_000, waiting_time: 0 }],
  unbonding: [
    { amount: 1_000_000_000, waiting_time: 86_400 },
    { amount: 2_000_000_000, waiting_time: 3_600 },
  ],
};
const balances = PolkadotBalances.parse(balancesWire);
const nothingUnbonded = PolkadotBalances.parse({ ...balancesWire, total_unbonded: 0, unbonded: [] });
const nothingAtAll = PolkadotBalances.parse({ ...balancesWire, total_unbonded: 0, unbonded: [], total_unbonding: 0, unbonding: [] });
const staking = PolkadotStaking.parse({ controller_address: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", proxies: [], rewards_destination: "Staked" });

const AMOUNT_OK = info("POLKADOT_AMOUNT_OK");
const NOT_POSITIVE = block("POLKADOT_AMOUNT_NOT_POSITIVE");

describe("checkPolkadotOperation", () => {
  it.each<[string, PolkadotOperation, PolkadotBalances, Expected, string[]]>([
    ["UNBOND all of a bonded balance above 2^53", { type: "UNBOND", amount: 9007199254740993n }, balances, [AMOUNT_OK, info("POLKADOT_UNBOND_OK")], []],
    [
      "UNBOND one base unit over bonded",
      { type: "UNBOND", amount: 9007199254740994n },
      balances,
      [AMOUNT_OK, block("POLKADOT_UNBOND_EXCEEDS_BONDED")],
      ["balances.bonded", "9007199254740994", "9007199254740993"],
    ],
    ["UNBOND zero", { type: "UNBOND", amount: 0n }, balances, [NOT_POSITIVE, info("POLKADOT_UNBOND_OK")], ["UNBOND amount"]],
    ["BONDEXTRA exactly available", { type: "BONDEXTRA", amount: 5_000_000_000n }, balances, [AMOUNT_OK, info("POLKADOT_BONDEXTRA_OK")], []],
    [
      "BONDEXTRA over available",
      { type: "BONDEXTRA", amount: 5_000_000_001n },
      balances,
      [AMOUNT_OK, block("POLKADOT_BONDEXTRA_EXCEEDS_AVAILABLE")],
      ["balances.available", "5000000001", "5000000000"],
    ],
    ["BONDEXTRA negative", { type: "BONDEXTRA", amount: -1n }, balances, [NOT_POSITIVE, info("POLKADOT_BONDEXTRA_OK")], ["BONDEXTRA amount", "-1"]],
    ["REBOND exactly unbonding plus unbonded", { type: "REBOND", amount: 5_000_000_000n }, balances, [AMOUNT_OK, info("POLKADOT_REBOND_OK")], []],
    [
      "REBOND more than unbonding, less than unbonding plus unbonded",
      { type: "REBOND", amount: 4_000_000_000n },
      balances,
      [AMOUNT_OK, info("POLKADOT_REBOND_OK")],
      [],
    ],
    [
      "REBOND over unbonding plus unbonded",
      { type: "REBOND", amount: 5_000_000_001n },
      balances,
      [AMOUNT_OK, block("POLKADOT_REBOND_EXCEEDS_UNBONDING")],
      ["balances.total_unbonding", "balances.total_unbonded", "5000000000"],
    ],
    ["REBOND zero", { type: "REBOND", amount: 0n }, balances, [NOT_POSITIVE, info("POLKADOT_REBOND_OK")], ["REBOND amount"]],
    ["WITHDRAWUNBONDED with unbonded funds", { type: "WITHDRAWUNBONDED" }, balances, [info("POLKADOT_WITHDRAW_OK")], []],
    [
      "WITHDRAWUNBONDED with nothing unbonded, funds still unbonding",
      { type: "WITHDRAWUNBONDED" },
      nothingUnbonded,
      [block("POLKADOT_WITHDRAW_NOTHING_UNBONDED")],
      ["balances.total_unbonded", "do nothing", "approval", "balances.total_unbonding 3000000000", "unbonds in 1 h"],
    ],
    [
      "WITHDRAWUNBONDED with nothing unbonded or unbonding",
      { type: "WITHDRAWUNBONDED" },
      nothingAtAll,
      [block("POLKADOT_WITHDRAW_NOTHING_UNBONDED")],
      ["balances.total_unbonded", "do nothing", "approval"],
    ],
    ["SETPAYEE to a new destination", { type: "SETPAYEE", payee: "Stash" }, balances, [info("POLKADOT_PAYEE_OK")], []],
    [
      "SETPAYEE to the current destination",
      { type: "SETPAYEE", payee: "Staked" },
      balances,
      [block("POLKADOT_PAYEE_UNCHANGED")],
      ["staking.rewards_destination", "Staked", "nothing would change"],
    ],
    [
      "SETPAYEE to the current destination in other case",
      { type: "SETPAYEE", payee: " staked" },
      balances,
      [block("POLKADOT_PAYEE_UNCHANGED")],
      ["staking.rewards_destination", "letter case"],
    ],
    ["SETPAYEE empty", { type: "SETPAYEE", payee: "" }, balances, [block("POLKADOT_PAYEE_EMPTY")], ["payee"]],
    ["SETPAYEE blank", { type: "SETPAYEE", payee: "   " }, balances, [block("POLKADOT_PAYEE_EMPTY")], ["payee"]],
  ])("%s", (_name, op, given, expected, fields) => {
    expectFindings(checkPolkadotOperation(op, given, staking), expected, fields);
  });

  it("reports amounts in facts as exact decimal strings", () => {
    const [, unbond] = checkPolkadotOperation({ type: "UNBOND", amount: 9007199254740994n }, balances, staking);
    expect(unbond?.facts).toEqual({ amount: "9007199254740994", bonded: "9007199254740993" });
  });
});

const base = { account_name: "Staking DOT", recipient: "", speed: "CUSTOM" };
const planck = (value: string | number | null) => ({ value, unit: "planck" });
const request = (fields: Record<string, unknown>) => TransactionRequest.parse({ ...base, ...fields });

const bondExtra = { amount: planck("10000000000"), max_fees: planck("0"), coin_fields: { type: "BONDEXTRA" } };
const withdraw = { amount: planck(null), max_fees: planck("0"), coin_fields: { type: "WITHDRAWUNBONDED" } };
const setPayee = { amount: planck(null), max_fees: planck("0"), coin_fields: { type: "SETPAYEE", payee: "Stash" } };

const ALL_OK_AMOUNT: Expected = [info("POLKADOT_RECIPIENT_OK"), info("POLKADOT_SPEED_OK"), info("POLKADOT_MAX_FEES_OK"), info("POLKADOT_AMOUNT_BASE_UNITS_OK")];
const ALL_OK_NULL: Expected = [info("POLKADOT_RECIPIENT_OK"), info("POLKADOT_SPEED_OK"), info("POLKADOT_MAX_FEES_OK"), info("POLKADOT_AMOUNT_NULL_OK")];
const withAmount = (code: string, severity: "block" | "warn" | "info", okList: Expected): Expected => [...okList.slice(0, 3), [code, severity]];

describe("checkPolkadotFixedValues", () => {
  it.each<[string, Record<string, unknown>, Expected, string[]]>([
    ["BONDEXTRA as the spec shows it", bondExtra, ALL_OK_AMOUNT, []],
    ['UNBOND with a plain-string max_fees "0"', { ...bondExtra, coin_fields: { type: "UNBOND" }, max_fees: "0" }, ALL_OK_AMOUNT, []],
    ["REBOND with max_fees value 0 as a number", { ...bondExtra, coin_fields: { type: "REBOND" }, max_fees: planck(0) }, ALL_OK_AMOUNT, []],
    ["REBOND with a plain-string amount", { ...bondExtra, coin_fields: { type: "REBOND" }, amount: "12345678901234567890" }, ALL_OK_AMOUNT, []],
    ["WITHDRAWUNBONDED with amount value null", withdraw, ALL_OK_NULL, []],
    ["SETPAYEE with amount value null", setPayee, ALL_OK_NULL, []],
    [
      "a recipient on a staking request",
      { ...bondExtra, recipient: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5" },
      [block("POLKADOT_RECIPIENT_NOT_EMPTY"), ...ALL_OK_AMOUNT.slice(1)],
      ["recipient", "BONDEXTRA"],
    ],
    [
      "speed NORMAL",
      { ...withdraw, speed: "NORMAL" },
      [ALL_OK_NULL[0]!, block("POLKADOT_SPEED_NOT_CUSTOM"), ...ALL_OK_NULL.slice(2)],
      ["speed", "CUSTOM", "NORMAL"],
    ],
    [
      "max_fees not zero",
      { ...setPayee, max_fees: planck("1000") },
      [...ALL_OK_NULL.slice(0, 2), block("POLKADOT_MAX_FEES_NOT_ZERO"), ALL_OK_NULL[3]!],
      ["max_fees", "1000"],
    ],
    [
      'max_fees "00" is not the fixed "0"',
      { ...bondExtra, max_fees: "00" },
      [...ALL_OK_AMOUNT.slice(0, 2), block("POLKADOT_MAX_FEES_NOT_ZERO"), ALL_OK_AMOUNT[3]!],
      ["max_fees"],
    ],
    [
      "max_fees value null",
      { ...bondExtra, max_fees: planck(null) },
      [...ALL_OK_AMOUNT.slice(0, 2), block("POLKADOT_MAX_FEES_NOT_ZERO"), ALL_OK_AMOUNT[3]!],
      ["max_fees"],
    ],
    [
      'WITHDRAWUNBONDED with amount "0" (tolerated)',
      { ...withdraw, amount: planck("0") },
      withAmount("POLKADOT_AMOUNT_ZERO_NOT_NULL", "warn", ALL_OK_NULL),
      ["amount", "null"],
    ],
    [
      'SETPAYEE with plain-string amount "0" (tolerated)',
      { ...setPayee, amount: "0" },
      withAmount("POLKADOT_AMOUNT_ZERO_NOT_NULL", "warn", ALL_OK_NULL),
      ["amount", "null"],
    ],
    [
      "WITHDRAWUNBONDED with an amount",
      { ...withdraw, amount: planck("500") },
      withAmount("POLKADOT_AMOUNT_NOT_NULL", "block", ALL_OK_NULL),
      ["amount", "WITHDRAWUNBONDED", "500"],
    ],
    [
      "BONDEXTRA with amount value null",
      { ...bondExtra, amount: planck(null) },
      withAmount("POLKADOT_AMOUNT_NOT_BASE_UNITS", "block", ALL_OK_AMOUNT),
      ["amount", "base units"],
    ],
    [
      "UNBOND with a decimal amount",
      { ...bondExtra, coin_fields: { type: "UNBOND" }, amount: planck("1.5") },
      withAmount("POLKADOT_AMOUNT_NOT_BASE_UNITS", "block", ALL_OK_AMOUNT),
      ["amount", "1.5"],
    ],
    [
      "everything wrong at once",
      { ...withdraw, recipient: "x", speed: "FAST", max_fees: "5", amount: "7" },
      [block("POLKADOT_RECIPIENT_NOT_EMPTY"), block("POLKADOT_SPEED_NOT_CUSTOM"), block("POLKADOT_MAX_FEES_NOT_ZERO"), block("POLKADOT_AMOUNT_NOT_NULL")],
      ["WITHDRAWUNBONDED"],
    ],
  ])("%s", (_name, fields, expected, named) => {
    expectFindings(checkPolkadotFixedValues(request(fields)), expected, named);
  });

  it.each([
    ["a plain send", { amount: "1", max_fees: "1", recipient: "addr", speed: "NORMAL", coin_fields: { type: "SEND" } }],
    [
      "a contract call",
      { amount: "1", max_fees: "1", recipient: "0xabc", speed: "FAST", coin_fields: { contract_interaction: { contract_data: "0xa9059cbb" } } },
    ],
    ["no coin_fields", { amount: "1", max_fees: "1", recipient: "addr", speed: "NORMAL" }],
  ])("yields nothing for %s", (_name, fields) => {
    expect(checkPolkadotFixedValues(request(fields))).toEqual([]);
  });
});
