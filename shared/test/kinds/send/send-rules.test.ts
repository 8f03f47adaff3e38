import { describe, it } from "vitest";
import { checkSend } from "../../../src/index.js";
import { expectFindings, type Expected } from "../kit/finding-table.js";

const TWO_POW_53_PLUS_1 = 9007199254740993n;

describe("checkSend", () => {
  it.each<[string, { amount: bigint; maxFees: bigint; availableBalance: bigint }, Expected, string[]]>([
    [
      "a small send that fits",
      { amount: 1n, maxFees: 0n, availableBalance: 1n },
      [
        ["SEND_AMOUNT_OK", "info"],
        ["SEND_BALANCE_OK", "info"],
      ],
      [],
    ],
    [
      "amount + max_fees exactly the available balance, above 2^53",
      { amount: TWO_POW_53_PLUS_1, maxFees: 2n, availableBalance: 9007199254740995n },
      [
        ["SEND_AMOUNT_OK", "info"],
        ["SEND_BALANCE_OK", "info"],
      ],
      [],
    ],
    [
      "one base unit over the available balance, above 2^53",
      { amount: TWO_POW_53_PLUS_1, maxFees: 2n, availableBalance: 9007199254740994n },
      [
        ["SEND_AMOUNT_OK", "info"],
        ["SEND_EXCEEDS_AVAILABLE", "block"],
      ],
      ["amount", "max_fees", "available_balance", "9007199254740995", "9007199254740994"],
    ],
    [
      "fees alone push it over",
      { amount: 100n, maxFees: 1n, availableBalance: 100n },
      [
        ["SEND_AMOUNT_OK", "info"],
        ["SEND_EXCEEDS_AVAILABLE", "block"],
      ],
      ["available_balance", "101"],
    ],
    [
      "zero amount",
      { amount: 0n, maxFees: 5n, availableBalance: 100n },
      [
        ["SEND_AMOUNT_NOT_POSITIVE", "block"],
        ["SEND_BALANCE_OK", "info"],
      ],
      ["amount"],
    ],
    [
      "negative amount",
      { amount: -1n, maxFees: 0n, availableBalance: 100n },
      [
        ["SEND_AMOUNT_NOT_POSITIVE", "block"],
        ["SEND_BALANCE_OK", "info"],
      ],
      ["amount", "-1"],
    ],
    [
      "negative max_fees cannot make room",
      { amount: 110n, maxFees: -20n, availableBalance: 100n },
      [
        ["SEND_AMOUNT_OK", "info"],
        ["SEND_MAX_FEES_NEGATIVE", "block"],
      ],
      ["max_fees"],
    ],
  ])("%s", (_name, input, expected, fields) => {
    expectFindings(checkSend(input), expected, fields);
  });
});
