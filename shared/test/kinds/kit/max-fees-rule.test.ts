import { describe, expect, it } from "vitest";
import { checkMaxFeesAgainstEstimate, Currency, maxFeesNotCompared } from "../../../src/index.js";
import { expectFindings } from "./finding-table.js";

const SOL = Currency.parse({
  name: "solana_testnet",
  units: [
    { code: "lamport", magnitude: 0 },
    { code: "SOL", magnitude: 9 },
  ],
});
const check = (maxFees: bigint, estimatedFees = 5_000n) => checkMaxFeesAgainstEstimate({ maxFees, estimatedFees, speed: "NORMAL", currency: SOL });

describe("checkMaxFeesAgainstEstimate", () => {
  it("blocks a cap one base unit below the estimate for the speed: it does not cover the network fee", () => {
    const found = check(4_999n);
    expectFindings(
      [found],
      [["MAX_FEES_BELOW_ESTIMATE", "block"]],
      ["max_fees", "0.000004999 SOL (4999 lamport)", "0.000005 SOL (5000 lamport)", "speed NORMAL", "does not cover the network fee"],
    );
    expect(found.facts).toEqual({ max_fees: "4999", estimated_fees: "5000", speed: "NORMAL" });
  });

  it("passes a cap equal to the estimate and one of exactly ten times it", () => {
    expectFindings(
      [check(5_000n), check(50_000n)],
      [
        ["MAX_FEES_COVERS_ESTIMATE_OK", "info"],
        ["MAX_FEES_COVERS_ESTIMATE_OK", "info"],
      ],
    );
  });

  it("warns about a cap more than ten times the estimate: it is held from the balance and counts against the limits", () => {
    expectFindings(
      [check(50_001n)],
      [["MAX_FEES_FAR_ABOVE_ESTIMATE", "warn"]],
      ["max_fees", "0.000050001 SOL (50001 lamport)", "10 times", "available balance", "policy"],
    );
  });

  it("compares exactly above 2^53", () => {
    const estimate = 2n ** 60n;
    expectFindings(
      [check(estimate - 1n, estimate), check(estimate * 10n, estimate), check(estimate * 10n + 1n, estimate)],
      [
        ["MAX_FEES_BELOW_ESTIMATE", "block"],
        ["MAX_FEES_COVERS_ESTIMATE_OK", "info"],
        ["MAX_FEES_FAR_ABOVE_ESTIMATE", "warn"],
      ],
    );
  });

  it("says so when the cap could not be compared: never a silent pass", () => {
    expectFindings(
      [maxFeesNotCompared(7_000n, SOL, "POST /transactions/fees answered HTTP 503")],
      [["MAX_FEES_NOT_COMPARED", "warn"]],
      ["max_fees", "0.000007 SOL (7000 lamport)", "not compared", "HTTP 503"],
    );
  });
});
