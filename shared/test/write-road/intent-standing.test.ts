import { describe, expect, it } from "vitest";
import { STOPPED_BEFORE_RESERVING, type GuardStore } from "../../src/guard-store/guard-store.js";
import type { WriteTrace } from "../../src/audit/write-traces.js";
import { unusableIntent } from "../../src/write-road/intent-standing.js";

function storeWith(trace: Partial<WriteTrace> | null): GuardStore {
  return {
    time: () => new Date("2026-11-26T10:05:00.000Z"),
    writeByReference: (reference: string) =>
      Promise.resolve(trace === null ? null : ({ reference, reserved_at: "2026-11-26T10:00:00.000Z", ...trace } as WriteTrace)),
  } as Partial<GuardStore> as GuardStore;
}
const notLookingUp = () => false;

describe("why an intent that is not open cannot be confirmed", () => {
  it("superseded by a newer dry run, or unknown to the store", async () => {
    expect(await unusableIntent({ outcome: "superseded", by_expires_at: 1 }, storeWith(null), notLookingUp)).toMatchObject({
      reason: "superseded",
      message: "a newer dry run of the same write was made since: only its confirmation counts. Nothing was sent",
    });
    expect((await unusableIntent({ outcome: "unknown" }, storeWith(null), notLookingUp)).reason).toBe("unknown_intent");
  });

  it("used already: naming the transaction it created", async () => {
    expect(await unusableIntent({ outcome: "reused", reference: "cw-1" }, storeWith({ transaction_id: 12, status: "submitted" }), notLookingUp)).toMatchObject({
      reason: "reused",
      message: "already used (a confirmation submits once); it created transaction 12. Nothing was sent",
      facts: { transaction_id: 12 },
    });
  });

  it("used already: the write it went on to, whose outcome is unknown, or that stopped before reserving", async () => {
    const uncertain = await unusableIntent({ outcome: "reused", reference: "cw-1" }, storeWith({ transaction_id: null, status: "uncertain" }), notLookingUp);
    expect(uncertain.message).toMatch(/^already used \(a confirmation submits once\); it went on to the write with reference cw-1, /);
    expect(uncertain.facts).toEqual({ transaction_id: null });
    expect((await unusableIntent({ outcome: "reused", reference: "cw-1" }, storeWith(null), notLookingUp)).message).toBe(
      "already used (a confirmation submits once); it went on to the write with reference cw-1. Nothing was sent",
    );
    expect((await unusableIntent({ outcome: "reused", reference: STOPPED_BEFORE_RESERVING }, storeWith(null), notLookingUp)).message).toBe(
      "already used (a confirmation submits once). Nothing was sent",
    );
    // Used, and naming no write yet: its confirmation is between the intent's use and its reservation, and may still send.
    expect((await unusableIntent({ outcome: "reused", reference: null }, storeWith(null), notLookingUp)).message).toBe(
      "already used (a confirmation submits once); its first confirmation is still under way (it may still send). Nothing was sent",
    );
  });
});
