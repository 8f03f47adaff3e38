import { describe, expect, it } from "vitest";
import { stringifyJsonExact } from "../../../src/json/exact-json.js";
import { InvalidInputError } from "../../../src/client/errors.js";
import { buildSendRequest } from "../../../src/kinds/send/send-request.js";
import { TransactionRequest } from "../../../src/schemas/transaction-request.js";
import { DOT, ETH, ETHEREUM_RECIPIENT, POLKADOT_RECIPIENT, SOL, SOLANA_PAYOUT, SOLANA_RECIPIENT } from "../../currency-fixtures.js";

describe("buildSendRequest", () => {
  // Amounts beyond 2^64 stay exact on every network.
  it.each([
    ["Solana", "sol-hot", SOL, SOLANA_RECIPIENT, "NORMAL", "lamport", { coin_fields: { type: "SEND" } }],
    ["Polkadot", "dot-main", DOT, POLKADOT_RECIPIENT, "FAST", "planck", { coin_fields: { type: "SEND" } }],
    ["Ethereum", "eth-vault", ETH, ETHEREUM_RECIPIENT, "NORMAL", "wei", {}],
  ] as const)(
    "builds the %s send body of the spec: base-unit amount objects and its coin_fields",
    (network, account_name, currency, recipient, speed, unit, coinFields) => {
      const body = buildSendRequest({
        network,
        account_name,
        recipient,
        amount: 123_456_789_012_345_678_901_234_567_890n,
        max_fees: 2_100_000_000_000_000n,
        speed,
        currency,
      });
      expect(body).toStrictEqual({
        account_name,
        amount: { value: "123456789012345678901234567890", unit },
        max_fees: { value: "2100000000000000", unit },
        recipient,
        speed,
        ...coinFields,
      });
      expect(TransactionRequest.safeParse(body).success).toBe(true);
    },
  );

  it("puts the note on the wire after the spec's fields, exactly", () => {
    const body = buildSendRequest({ ...SOLANA_PAYOUT, note: { title: "payout-2024-03", content: "March payout" } });
    expect(body.note).toStrictEqual({ title: "payout-2024-03", content: "March payout" });
    expect(stringifyJsonExact(body)).toBe(
      `{"account_name":"sol-hot","amount":{"value":"1500000000","unit":"lamport"},"max_fees":{"value":"5000","unit":"lamport"},` +
        `"recipient":"${SOLANA_RECIPIENT}","speed":"NORMAL","coin_fields":{"type":"SEND"},"note":{"title":"payout-2024-03","content":"March payout"}}`,
    );
  });

  it("names every bad field and its rule", () => {
    const attempt = () =>
      buildSendRequest({
        network: "Solana",
        account_name: "sol-hot",
        recipient: "",
        amount: 0n,
        max_fees: -1n,
        speed: "NORMAL",
        currency: SOL,
      });
    expect(attempt).toThrow(InvalidInputError);
    expect(attempt).toThrow(/recipient: must be a non-empty address without spaces/);
    expect(attempt).toThrow(/amount: must be a positive whole number of base units, got 0/);
    expect(attempt).toThrow(/max_fees: must be a non-negative whole number of base units, got -1/);
  });

  it("refuses a number amount (floats never reach the wire) and an unknown network", () => {
    const base = { account_name: "a", recipient: SOLANA_RECIPIENT, max_fees: 1n, speed: "NORMAL" as const, currency: SOL };
    expect(() => buildSendRequest({ ...base, network: "Solana", amount: 1.5 as unknown as bigint })).toThrow(/amount: must be a bigint of base units/);
    expect(() => buildSendRequest({ ...base, network: "Bitcoin" as "Solana", amount: 1n })).toThrow(/network: must be one of Solana, Polkadot, Ethereum/);
  });

  it("validates the built body with the schema (empty account name, unknown speed)", () => {
    const base = { network: "Solana" as const, recipient: SOLANA_RECIPIENT, amount: 1n, max_fees: 1n, currency: SOL };
    expect(() => buildSendRequest({ ...base, account_name: "", speed: "NORMAL" })).toThrow(/account_name: must name the account/);
    expect(() => buildSendRequest({ ...base, account_name: "a", speed: "TURBO" as "FAST" })).toThrow(/speed: must be one of SLOW, NORMAL, FAST, CUSTOM/);
  });

  it("copies only title and content of the note", () => {
    const note = { title: "t", content: "c", secret: "x" } as { title: string; content: string };
    const body = buildSendRequest({
      network: "Solana",
      account_name: "a",
      recipient: SOLANA_RECIPIENT,
      amount: 1n,
      max_fees: 1n,
      speed: "NORMAL",
      currency: SOL,
      note,
    });
    expect(body.note).toStrictEqual({ title: "t", content: "c" });
  });
});
