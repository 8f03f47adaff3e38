import { describe, expect, it } from "vitest";
import { checkInFlight, Currency, inFlightNotCounted, type InFlightInput } from "../../../src/index.js";
import { expectFindings } from "./finding-table.js";

const DOT = Currency.parse({
  name: "polkadot",
  units: [
    { code: "planck", magnitude: 0 },
    { code: "DOT", magnitude: 10 },
  ],
});
const dot = (whole: bigint) => whole * 10_000_000_000n;

// The review's case: UNBOND 3000 DOT right after another UNBOND of 3000 DOT still APPROVED, against 3200 DOT bonded.
const unbond: InFlightInput = {
  prefix: "POLKADOT_UNBOND",
  what: "UNBOND amount",
  amount: dot(3000n),
  balanceName: "balances.bonded",
  balance: dot(3200n),
  inFlight: [{ id: 42, type: "UNBOND", status: "APPROVED", draws: dot(3000n) }],
  currency: DOT,
};

describe("checkInFlight", () => {
  it("blocks when the amount plus the unfinished transactions exceeds the balance, listing them in both units", () => {
    const found = checkInFlight(unbond);
    expectFindings(
      [found],
      [["POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT", "block"]],
      ["balances.bonded", "id 42 UNBOND 3000 DOT (30000000000000 planck) APPROVED", "6000 DOT (60000000000000 planck)", "3200 DOT (32000000000000 planck)"],
    );
    expect(found.facts).toMatchObject({ amount: "30000000000000", in_flight: "30000000000000", in_flight_ids: "42", balance: "32000000000000" });
  });

  it("passes when everything fits, to the base unit", () => {
    expectFindings([checkInFlight({ ...unbond, amount: dot(200n) })], [["POLKADOT_UNBOND_IN_FLIGHT_OK", "info"]]);
    expectFindings([checkInFlight({ ...unbond, amount: dot(200n) + 1n })], [["POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT", "block"]]);
  });

  it("sums several unfinished transactions", () => {
    const several = {
      ...unbond,
      amount: dot(1000n),
      inFlight: [
        { id: 7, type: "UNBOND", status: "PENDING_APPROVAL", draws: dot(1200n) },
        { id: 9, type: "UNBOND", status: "SIGNED", draws: dot(1001n) },
      ],
    };
    const found = checkInFlight(several);
    expectFindings([found], [["POLKADOT_UNBOND_EXCEEDS_WITH_IN_FLIGHT", "block"]], ["id 7 UNBOND", "PENDING_APPROVAL", "id 9 UNBOND", "SIGNED", "2201 DOT"]);
    expect(found.facts.in_flight_ids).toBe("7,9");
  });

  it("says when nothing is in flight", () => {
    expectFindings([checkInFlight({ ...unbond, inFlight: [] })], [["POLKADOT_UNBOND_IN_FLIGHT_OK", "info"]]);
  });

  it("warns when the unfinished transactions could not be listed", () => {
    expectFindings(
      [inFlightNotCounted("balances.bonded", "GET /transactions answered HTTP 400")],
      [["IN_FLIGHT_NOT_COUNTED", "warn"]],
      ["balances.bonded", "not counted", "HTTP 400"],
    );
  });
});
