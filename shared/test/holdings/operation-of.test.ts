import { describe, expect, it } from "vitest";
import type { Transaction } from "../../src/index.js";
import { operationOf } from "../../src/holdings/unfinished-transactions.js";

const tx = (type: string, coinType?: string) => ({ type, coin_fields: coinType === undefined ? null : { type: coinType } }) as unknown as Transaction;

describe("the operation an unfinished transaction performs", () => {
  it.each([
    ["a bond extra reported under a generic type", tx("SEND", "BONDEXTRA"), "BONDEXTRA"],
    ["a withdraw spelled with underscores", tx("WITHDRAW_UNBONDED"), "WITHDRAWUNBONDED"],
    ["SET_PAYEE as the release notes write it", tx("SEND", "SET_PAYEE"), "SETPAYEE"],
    ["an unbond in lower case in coin_fields", tx("UNBOND", "unbond"), "UNBOND"],
    ["a plain send", tx("SEND", "SEND"), "SEND"],
    ["a Solana stake", tx("STAKE_CREATE_DELEGATE"), "STAKE_CREATE_DELEGATE"],
  ])("%s", (_name, transaction, expected) => {
    expect(operationOf(transaction)).toBe(expected);
  });
});
