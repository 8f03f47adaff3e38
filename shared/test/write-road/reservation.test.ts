import { describe, expect, it } from "vitest";
import { grantFor, limitSetsFor } from "../../src/policy/person-grant.js";
import { Policy } from "../../src/policy/policy.js";
import { finding } from "../../src/schemas/finding.js";
import { blockedByReservation, reservationRequest, type ReservationOf } from "../../src/write-road/reservation.js";
import { plannedSend } from "./planned-write-fixture.js";

const policy = Policy.parse({ limits: { SOL: { max_per_day: { base_units: "1500000" } } }, team_limits: { DOT: { max_per_day: { base_units: "1" } } } });
const sets = limitSetsFor(policy, grantFor(policy, null), "treasury-bot");
const of = (over: Partial<ReservationOf> = {}): ReservationOf => ({
  record: { event: "reserved", surface: "mcp", operator: "treasury-bot", tool: "create_transaction", request_digest: null },
  fingerprint: "f".repeat(64),
  duplicatesSince: new Date(1_000),
  repeatOf: null,
  limitSets: sets,
  limitsSince: new Date(2_000),
  ...over,
});

describe("the reservation of a planned write", () => {
  it("reserves its reference and intent, and its amount against each daily maximum of its currency alone", () => {
    const request = reservationRequest(plannedSend(), of({ repeatOf: "41" }));
    expect(request).toMatchObject({
      operator: "treasury-bot",
      fingerprint: "f".repeat(64),
      reference: "ref-1",
      duplicatesSince: new Date(1_000),
      repeatOf: "41",
    });
    // The team's DOT maximum does not hold a SOL send.
    expect(request.limits.map((limit) => [limit.scope.kind, limit.currency, limit.since])).toEqual([["operator", "SOL", new Date(2_000)]]);
    const [limit] = request.limits;
    expect(limit?.check(500_000n)).toMatchObject({ severity: "info", code: "POLICY_MAX_PER_DAY_OK" });
    expect(limit?.check(500_001n)).toMatchObject({ severity: "block", code: "POLICY_MAX_PER_DAY" });
  });

  it("holds no limit for a write that moves no amount the policy counts", () => {
    expect(reservationRequest(plannedSend({ policy_amount: undefined }), of()).limits).toEqual([]);
  });

  it("a refused reservation's verdict replaces the plan's finding of the same limit, its _OK and an acknowledged repeat", () => {
    const plan = plannedSend({
      checks: [finding("info", "AMOUNT_OK", "fine"), finding("info", "POLICY_MAX_PER_DAY_OK", "within"), finding("warn", "REPEAT_ACKNOWLEDGED", "again")],
    });
    const verdict = finding("block", "POLICY_MAX_PER_DAY", "above");
    expect(blockedByReservation(plan, verdict).checks.map((check) => check.code)).toEqual(["AMOUNT_OK", "POLICY_MAX_PER_DAY"]);
    expect(blockedByReservation(plan, null).checks).toEqual(plan.checks);
  });
});
