import { describe, expect, it } from "vitest";
import { stringifyJsonExact } from "../../../src/json/exact-json.js";
import {
  buildBondExtraRequest,
  buildRebondRequest,
  buildSetPayeeRequest,
  buildUnbondRequest,
  buildWithdrawUnbondedRequest,
} from "../../../src/kinds/polkadot/polkadot-staking-requests.js";
import { checkPolkadotFixedValues } from "../../../src/kinds/polkadot/polkadot-rules.js";
import { hasBlocking } from "../../../src/schemas/finding.js";
import type { TransactionRequest } from "../../../src/schemas/transaction-request.js";
import { DOT } from "../../currency-fixtures.js";

const fixed = { max_fees: { value: "0", unit: "planck" }, recipient: "", speed: "CUSTOM" };

describe("Polkadot staking builders", () => {
  it.each([
    ["BONDEXTRA", buildBondExtraRequest],
    ["UNBOND", buildUnbondRequest],
    ["REBOND", buildRebondRequest],
  ] as const)("%s: amount in planck, recipient empty, speed CUSTOM, max_fees 0", (type, build) => {
    const body = build({ account_name: "dot-main", amount: 100_000_000_000n, currency: DOT });
    expect(body).toStrictEqual({
      account_name: "dot-main",
      amount: { value: "100000000000", unit: "planck" },
      ...fixed,
      coin_fields: { type },
    });
    expect(hasBlocking(checkPolkadotFixedValues(body))).toBe(false);
  });

  it("WITHDRAWUNBONDED: amount value null", () => {
    const body = buildWithdrawUnbondedRequest({ account_name: "dot-main", currency: DOT, note: { title: "withdraw", content: "after 28 days" } });
    expect(stringifyJsonExact(body)).toBe(
      '{"account_name":"dot-main","amount":{"value":null,"unit":"planck"},"max_fees":{"value":"0","unit":"planck"},' +
        '"recipient":"","speed":"CUSTOM","coin_fields":{"type":"WITHDRAWUNBONDED"},"note":{"title":"withdraw","content":"after 28 days"}}',
    );
    expect(hasBlocking(checkPolkadotFixedValues(body))).toBe(false);
  });

  it("SETPAYEE: amount value null and the payee", () => {
    const body: TransactionRequest = buildSetPayeeRequest({ account_name: "dot-main", currency: DOT, payee: "Stash" });
    expect(body).toStrictEqual({
      account_name: "dot-main",
      amount: { value: null, unit: "planck" },
      ...fixed,
      coin_fields: { type: "SETPAYEE", payee: "Stash" },
    });
    expect(hasBlocking(checkPolkadotFixedValues(body))).toBe(false);
  });

  it("refuses a zero or negative amount and an empty payee", () => {
    expect(() => buildUnbondRequest({ account_name: "dot-main", amount: 0n, currency: DOT })).toThrow(
      /Polkadot UNBOND request .*amount: must be a positive whole number of base units, got 0/,
    );
    expect(() => buildBondExtraRequest({ account_name: "dot-main", amount: -5n, currency: DOT })).toThrow(/amount: must be a positive/);
    expect(() => buildSetPayeeRequest({ account_name: "dot-main", currency: DOT, payee: "" })).toThrow(/payee: must name a rewards destination/);
  });
});
