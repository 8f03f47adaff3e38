import { describe, expect, it } from "vitest";
import {
  checkSolanaCreateStake,
  checkSolanaStakeAction,
  SolanaStake,
  type SolanaCreateStakeInput,
  type SolanaStakeAction,
  type SolanaStakeState,
} from "../../../src/index.js";
import { expectFindings, type Expected } from "../kit/finding-table.js";

const RESERVE = 2_282_880n;
const TOTAL = 10_002_282_880n;
const ALL: SolanaStakeAction[] = ["deactivate", "withdraw", "delegate", "split", "split_deactivate"];

function stake(status: SolanaStakeState, actions: SolanaStakeAction[], total = TOTAL): SolanaStake {
  const uid = "5f0c2a4e-8d1b-4c3a-9e7f-1a2b3c4d5e6f";
  return SolanaStake.parse({
    uid,
    account_id: 7,
    account_name: "Staking SOL",
    currency: "solana_devnet",
    created_on: "2023-01-20T10:00:00.000",
    status: "ACTIVE",
    total_reward: 0,
    actions: actions.map((action) => `/solana/accounts/7/stakes/${uid}/actions/${action}`),
    blockchain_state: {
      status,
      activation_epoch: 500,
      deactivation_epoch: null,
      active_balance: (total - RESERVE).toString(),
      inactive_balance: RESERVE.toString(),
      total_balance: total.toString(),
      rent_exempt_reserve: RESERVE.toString(),
      pub_key: "Stake11111111111111111111111111111111111111",
      validator_address: "Vote111111111111111111111111111111111111111",
    },
  });
}

const LISTED: Expected = [["SOLANA_STAKE_ACTION_LISTED_OK", "info"]];
const NOT_LISTED: Expected = [["SOLANA_STAKE_ACTION_NOT_LISTED", "block"]];
const SPLIT_OK: Expected = [
  ["SOLANA_SPLIT_AMOUNT_OK", "info"],
  ["SOLANA_SPLIT_WITHIN_TOTAL_OK", "info"],
  ["SOLANA_SPLIT_SOURCE_RESERVE_OK", "info"],
  ["SOLANA_SPLIT_NEW_STAKE_RESERVE_OK", "info"],
];

describe("checkSolanaStakeAction", () => {
  it.each<[string, SolanaStakeAction, SolanaStake, bigint | undefined, Expected, string[]]>([
    ["deactivate an activated stake", "deactivate", stake("activated", ALL), undefined, [...LISTED, ["SOLANA_DEACTIVATE_STATE_OK", "info"]], []],
    ["deactivate an activating stake", "deactivate", stake("activating", ["deactivate"]), undefined, [...LISTED, ["SOLANA_DEACTIVATE_STATE_OK", "info"]], []],
    [
      "deactivate a deactivating stake",
      "deactivate",
      stake("deactivating", ["deactivate"]),
      undefined,
      [...LISTED, ["SOLANA_DEACTIVATE_WRONG_STATE", "block"]],
      ["blockchain_state.status", "deactivating"],
    ],
    [
      "deactivate a deactivated stake the service does not offer it on",
      "deactivate",
      stake("deactivated", ["withdraw"]),
      undefined,
      [...NOT_LISTED, ["SOLANA_DEACTIVATE_WRONG_STATE", "block"]],
      ["deactivate"],
    ],
    [
      "deactivate with an amount: the amount is ignored",
      "deactivate",
      stake("activated", ALL),
      5n,
      [...LISTED, ["SOLANA_DEACTIVATE_STATE_OK", "info"], ["SOLANA_STAKE_AMOUNT_IGNORED", "warn"]],
      ["blockchain_state.total_balance", "split_deactivate"],
    ],
    ["withdraw a deactivated stake", "withdraw", stake("deactivated", ["withdraw"]), undefined, [...LISTED, ["SOLANA_WITHDRAW_STATE_OK", "info"]], []],
    [
      "withdraw a deactivating stake",
      "withdraw",
      stake("deactivating", ["withdraw"]),
      undefined,
      [...LISTED, ["SOLANA_WITHDRAW_NOT_DEACTIVATED", "block"]],
      ["blockchain_state.status", "deactivated"],
    ],
    [
      "withdraw an activated stake not offering it",
      "withdraw",
      stake("activated", ["deactivate"]),
      undefined,
      [...NOT_LISTED, ["SOLANA_WITHDRAW_NOT_DEACTIVATED", "block"]],
      ["withdraw"],
    ],
    ["delegate when actions lists it", "delegate", stake("deactivating", ["delegate"]), undefined, LISTED, []],
    ["delegate when actions does not list it", "delegate", stake("deactivating", ["withdraw"]), undefined, NOT_LISTED, ["delegate", "actions"]],
    ["delegate when actions is empty", "delegate", stake("deactivating", []), undefined, NOT_LISTED, ["delegate", "none"]],
    ["split a valid amount", "split", stake("activated", ALL), 1_000_000_000n, [...LISTED, ...SPLIT_OK], []],
    ["split the smallest amount: reserve + 1", "split", stake("activated", ALL), RESERVE + 1n, [...LISTED, ...SPLIT_OK], []],
    ["split the largest amount: total - reserve", "split_deactivate", stake("activated", ALL), TOTAL - RESERVE, [...LISTED, ...SPLIT_OK], []],
    [
      "split exactly the reserve",
      "split",
      stake("activated", ALL),
      RESERVE,
      [...LISTED, ...SPLIT_OK.slice(0, 3), ["SOLANA_SPLIT_NEW_STAKE_BELOW_RESERVE", "block"]],
      ["blockchain_state.rent_exempt_reserve", "2282880", "2282881"],
    ],
    [
      "split one base unit too many for the source",
      "split_deactivate",
      stake("activated", ALL),
      TOTAL - RESERVE + 1n,
      [...LISTED, ...SPLIT_OK.slice(0, 2), ["SOLANA_SPLIT_SOURCE_BELOW_RESERVE", "block"], SPLIT_OK[3]!],
      ["blockchain_state.rent_exempt_reserve", "2282879", "10000000000"],
    ],
    [
      "split more than the total",
      "split",
      stake("activated", ALL),
      TOTAL + 1n,
      [...LISTED, SPLIT_OK[0]!, ["SOLANA_SPLIT_EXCEEDS_TOTAL", "block"], ["SOLANA_SPLIT_SOURCE_BELOW_RESERVE", "block"], SPLIT_OK[3]!],
      ["blockchain_state.", "10002282881"],
    ],
    [
      "split zero",
      "split",
      stake("activated", ALL),
      0n,
      [...LISTED, ["SOLANA_SPLIT_AMOUNT_NOT_POSITIVE", "block"], ...SPLIT_OK.slice(1, 3), ["SOLANA_SPLIT_NEW_STAKE_BELOW_RESERVE", "block"]],
      ["split amount"],
    ],
    ["split with no amount", "split", stake("activated", ALL), undefined, [...LISTED, ["SOLANA_SPLIT_AMOUNT_MISSING", "block"]], ["split", "amount"]],
    [
      "split_deactivate not offered",
      "split_deactivate",
      stake("activated", ["deactivate", "split"]),
      1_000_000_000n,
      [...NOT_LISTED, ...SPLIT_OK],
      ["split_deactivate"],
    ],
  ])("%s", (_name, action, given, amount, expected, fields) => {
    expectFindings(checkSolanaStakeAction(action, given, amount === undefined ? {} : { amount }), expected, fields);
  });

  it("matches the actions element on its last segment only", () => {
    const findings = checkSolanaStakeAction("split", stake("activated", ["split_deactivate"]), { amount: 1_000_000_000n });
    expect(findings[0]?.code).toBe("SOLANA_STAKE_ACTION_NOT_LISTED");
  });
});

describe("checkSolanaCreateStake", () => {
  it.each<[string, SolanaCreateStakeInput, Expected, string[]]>([
    [
      "a stake within the balance, fees and reserve known",
      { amount: 1_000_000_000n, availableBalance: 2_000_000_000n, rentExemptReserve: RESERVE, maxFees: 5_000n },
      [
        ["SOLANA_STAKE_AMOUNT_OK", "info"],
        ["SOLANA_STAKE_BALANCE_OK", "info"],
        ["SOLANA_STAKE_RESERVE_OK", "info"],
      ],
      [],
    ],
    [
      "amount + fees exactly the balance",
      { amount: 1_999_995_000n, availableBalance: 2_000_000_000n, maxFees: 5_000n },
      [
        ["SOLANA_STAKE_AMOUNT_OK", "info"],
        ["SOLANA_STAKE_BALANCE_OK", "info"],
      ],
      [],
    ],
    [
      "amount + fees one over the balance",
      { amount: 1_999_995_001n, availableBalance: 2_000_000_000n, maxFees: 5_000n },
      [
        ["SOLANA_STAKE_AMOUNT_OK", "info"],
        ["SOLANA_STAKE_EXCEEDS_AVAILABLE", "block"],
      ],
      ["amount", "max_fees", "available_balance", "2000000001"],
    ],
    [
      "fees unknown, amount below the balance",
      { amount: 1_000_000_000n, availableBalance: 2_000_000_000n },
      [
        ["SOLANA_STAKE_AMOUNT_OK", "info"],
        ["SOLANA_STAKE_BALANCE_OK", "info"],
      ],
      [],
    ],
    [
      "fees unknown, amount the whole balance",
      { amount: 2_000_000_000n, availableBalance: 2_000_000_000n },
      [
        ["SOLANA_STAKE_AMOUNT_OK", "info"],
        ["SOLANA_STAKE_NO_ROOM_FOR_FEES", "warn"],
      ],
      ["available_balance", "fees"],
    ],
    [
      "fees unknown, amount over the balance",
      { amount: 2_000_000_001n, availableBalance: 2_000_000_000n },
      [
        ["SOLANA_STAKE_AMOUNT_OK", "info"],
        ["SOLANA_STAKE_EXCEEDS_AVAILABLE", "block"],
      ],
      ["available_balance", "before fees"],
    ],
    [
      "amount exactly the reserve",
      { amount: RESERVE, availableBalance: 2_000_000_000n, rentExemptReserve: RESERVE },
      [
        ["SOLANA_STAKE_AMOUNT_OK", "info"],
        ["SOLANA_STAKE_BALANCE_OK", "info"],
        ["SOLANA_STAKE_AMOUNT_NOT_ABOVE_RESERVE", "block"],
      ],
      ["rent-exempt reserve", "2282880"],
    ],
    [
      "zero amount",
      { amount: 0n, availableBalance: 2_000_000_000n, maxFees: 5_000n },
      [
        ["SOLANA_STAKE_AMOUNT_NOT_POSITIVE", "block"],
        ["SOLANA_STAKE_BALANCE_OK", "info"],
      ],
      ["amount"],
    ],
  ])("%s", (_name, input, expected, fields) => {
    expectFindings(checkSolanaCreateStake(input), expected, fields);
  });
});
