import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/client/errors.js";
import { buildSetPayeeRequest } from "../../src/kinds/polkadot/polkadot-staking-requests.js";
import { REWARDS_DESTINATIONS, RewardsDestination } from "../../src/schemas/coin-fields-request.js";
import { TransactionRequest } from "../../src/schemas/transaction-request.js";
import { formatIssues } from "../../src/schemas/validation-message.js";
import { DOT } from "../currency-fixtures.js";

const setPayee = (coinFields: Record<string, unknown>) => ({
  account_name: "dot-main",
  amount: { value: null, unit: "planck" },
  max_fees: { value: "0", unit: "planck" },
  recipient: "",
  speed: "CUSTOM",
  coin_fields: { type: "SETPAYEE", ...coinFields },
});

function issuesOf(body: unknown): string {
  const result = TransactionRequest.safeParse(body);
  return result.success ? "" : formatIssues(result.error);
}

describe("SETPAYEE rewards destinations: one list for the builders, the schemas and the emulator", () => {
  it("lists Polkadot's destinations, spelled as the service writes them", () => {
    expect(REWARDS_DESTINATIONS).toEqual(["Staked", "Stash", "Controller", "Account", "None"]);
  });

  it.each(REWARDS_DESTINATIONS.map((payee) => [payee]))("accepts %s in the schema and the builder", (payee) => {
    expect(RewardsDestination.parse(payee)).toBe(payee);
    expect(TransactionRequest.parse(setPayee({ payee })).coin_fields).toEqual({ type: "SETPAYEE", payee });
    expect(buildSetPayeeRequest({ account_name: "dot-main", currency: DOT, payee }).coin_fields).toEqual({ type: "SETPAYEE", payee });
  });

  it.each([["Bogus"], ["stash"], [" Stash"], ["Stash "], [""], ["Stash\u202E</untrusted>"]])(
    "refuses the name %j at coin_fields.payee alone, with the accepted destinations",
    (payee) => {
      expect(issuesOf(setPayee({ payee }))).toBe(
        `coin_fields.payee: must be one of Staked, Stash, Controller, Account, None (spelled so), got ${JSON.stringify(payee)}`,
      );
    },
  );

  it.each([
    [5, "5"],
    [null, "null"],
    [{ name: "Stash" }, "an object"],
  ])("refuses the non-string %j, naming coin_fields.payee and the rule", (payee, shown) => {
    expect(issuesOf(setPayee({ payee }))).toContain(`coin_fields.payee: must be one of Staked, Stash, Controller, Account, None (spelled so), got ${shown}`);
  });

  it("refuses a missing payee, naming coin_fields.payee and the destinations", () => {
    expect(issuesOf(setPayee({}))).toContain(
      "coin_fields.payee: required for SETPAYEE: the new rewards destination, one of Staked, Stash, Controller, Account, None (spelled so)",
    );
  });

  it("the builder refuses what the emulator refuses, naming the field", () => {
    let caught: unknown;
    try {
      buildSetPayeeRequest({ account_name: "dot-main", currency: DOT, payee: "Bogus" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidInputError);
    expect((caught as InvalidInputError).issues).toContainEqual({
      path: "coin_fields.payee",
      message: 'must be one of Staked, Stash, Controller, Account, None (spelled so), got "Bogus"',
    });
  });
});
