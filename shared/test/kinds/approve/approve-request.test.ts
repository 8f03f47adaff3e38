import { describe, expect, it } from "vitest";
import { buildApproveRequest, buildApproveRequestFor } from "../../../src/kinds/approve/approve-request.js";
import { DOT, SOL } from "../../currency-fixtures.js";

describe("approve bodies", () => {
  it("sends amount and max_fees as the same base-unit amount objects as the transaction request", () => {
    expect(buildApproveRequest({ amount: 1_500_000_000n, max_fees: 5_000n, currency: SOL })).toStrictEqual({
      amount: { value: "1500000000", unit: "lamport" },
      max_fees: { value: "5000", unit: "lamport" },
    });
  });

  it("builds from the transaction the service returned, null amount for SETPAYEE and WITHDRAWUNBONDED", () => {
    const send = { amount: 2n ** 70n, max_fees: 5_000n, currency: "SOL", type: "SEND" };
    expect(buildApproveRequestFor(send, SOL)).toStrictEqual({
      amount: { value: "1180591620717411303424", unit: "lamport" },
      max_fees: { value: "5000", unit: "lamport" },
    });
    const payee = { amount: 0n, max_fees: 0n, currency: "DOT", type: "SETPAYEE" };
    expect(buildApproveRequestFor(payee, DOT)).toStrictEqual({
      amount: { value: null, unit: "planck" },
      max_fees: { value: "0", unit: "planck" },
    });
  });

  it("carries contract_interaction coin_fields when given", () => {
    const body = buildApproveRequest({ amount: 0n, max_fees: 1n, currency: SOL, coin_fields: { contract_interaction: { contract_data: "0xa1903eab" } } });
    expect(body.coin_fields).toStrictEqual({ contract_interaction: { contract_data: "0xa1903eab" } });
  });

  it("refuses another currency than the transaction's, and negative amounts", () => {
    expect(() => buildApproveRequestFor({ amount: 1n, max_fees: 1n, currency: "DOT", type: "SEND" }, SOL)).toThrow(
      /currency: must be the transaction's currency DOT, got SOL/,
    );
    expect(() => buildApproveRequest({ amount: -1n, max_fees: 1n, currency: SOL })).toThrow(/amount: must be a non-negative/);
    expect(() => buildApproveRequest({ amount: 1n, max_fees: 1n, currency: SOL, coin_fields: { smart_contract: {} } as never })).toThrow(
      /coin_fields\.smart_contract was renamed coin_fields\.contract_interaction/,
    );
  });
});
