import { describe, expect, it } from "vitest";
import { stringifyJsonExact } from "../../../src/json/exact-json.js";
import {
  buildCreateSolanaStakeRequest,
  buildDelegateSolanaStakeRequest,
  buildSplitSolanaStakeRequest,
} from "../../../src/kinds/solana/solana-stake-requests.js";
import { SOLANA_VALIDATOR } from "../../currency-fixtures.js";

describe("Solana stake bodies", () => {
  it("create: amount stays a bigint and goes out as a raw JSON integer", () => {
    const body = buildCreateSolanaStakeRequest({ amount: 9_007_199_254_740_993n, validator: SOLANA_VALIDATOR });
    expect(body).toStrictEqual({ amount: 9_007_199_254_740_993n, validator: SOLANA_VALIDATOR });
    expect(stringifyJsonExact(body)).toBe(`{"amount":9007199254740993,"validator":"${SOLANA_VALIDATOR}"}`);
  });

  it("delegate: the validator only", () => {
    expect(buildDelegateSolanaStakeRequest({ validator: SOLANA_VALIDATOR })).toStrictEqual({ validator: SOLANA_VALIDATOR });
  });

  it("split and split_deactivate: the amount as a JSON integer", () => {
    const body = buildSplitSolanaStakeRequest({ amount: 2_000_000_000n });
    expect(stringifyJsonExact(body)).toBe('{"amount":2000000000}');
  });

  it("refuses a zero amount, a number amount and a validator that is not a Solana address", () => {
    expect(() => buildCreateSolanaStakeRequest({ amount: 0n, validator: SOLANA_VALIDATOR })).toThrow(/amount: must be a positive/);
    expect(() => buildSplitSolanaStakeRequest({ amount: 1e9 as unknown as bigint })).toThrow(/amount: must be a bigint of base units/);
    expect(() => buildDelegateSolanaStakeRequest({ validator: "validator-1" })).toThrow(/validator: must be a Solana address/);
    expect(() => buildCreateSolanaStakeRequest({ amount: 1n, validator: `${SOLANA_VALIDATOR} ` })).toThrow(/validator/);
  });
});
