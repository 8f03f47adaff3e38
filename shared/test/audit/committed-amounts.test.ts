import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, committedSince, FileGuardStore, LEDGER_KEEPS_MS, NOT_APPLIED_OUTCOME, type AuditEvent, type CommittedQuery } from "../../src/index.js";

/**
 * A log and `committed`: the total read from the whole log in one pass, checked equal to the
 * ledger's (the live one of the appending log, and that of a log opened afresh on the file), which
 * may leave only a moment older than it keeps to the log, and to the file store's.
 */
function freshLog(start: string) {
  const path = join(mkdtempSync(join(tmpdir(), "audit-")), "audit.jsonl");
  const clock = { now: new Date(start) };
  const log = new AuditLog(path, () => clock.now);
  const append = (event: AuditEvent, details: Record<string, unknown>, operator = "alice_ops") =>
    log.append({ event, surface: "mcp", operator, tool: "create_transaction", request_digest: null, details });
  const committed = async (query: CommittedQuery) => {
    const scanned = committedSince(path, query);
    for (const ledger of [log.ledger(), new AuditLog(path).ledger()]) {
      const kept = ledger.committedSince(query);
      if (kept === null) expect(query.since.getTime()).toBeLessThan(clock.now.getTime() - LEDGER_KEEPS_MS);
      else expect(kept).toBe(scanned);
    }
    expect(await new FileGuardStore(path).committedSince(query)).toBe(scanned);
    return scanned;
  };
  return { path, clock, append, committed };
}

describe("committed amounts from the audit log", () => {
  it("sums the operator's submitted writes in the currency within the window", async () => {
    const { clock, append, committed } = freshLog("2026-01-01T00:00:00Z");
    await append("submitted", { currency: "polkadot", policy_amount: 5n });
    clock.now = new Date("2026-01-02T06:00:00Z");
    await append("submitted", { currency: "polkadot", policy_amount: 2n ** 70n });
    await append("dry_run", { currency: "polkadot", policy_amount: 1000n });
    await append("submitted", { currency: "polkadot", policy_amount: 1000n }, "bob_ops");
    await append("submitted", { currency: "ethereum", policy_amount: 1000n });
    const since = new Date("2026-01-01T12:00:00Z");
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since })).toBe(2n ** 70n);
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(2n ** 70n + 5n);
    expect(committedSince(join(tmpdir(), "missing-audit.jsonl"), { scope: { kind: "operator" as const, operator: "x" }, currency: "y", since })).toBe(0n);
  });

  it("counts an ambiguous write that may have happened: not found, uncertain, or never resolved", async () => {
    const { append, committed } = freshLog("2026-01-02T00:00:00Z");
    await append("ambiguous", { currency: "polkadot", policy_amount: 7n, reference: "cw-not-found" });
    await append("resolved", { outcome: "not_found", reference: "cw-not-found" });
    await append("ambiguous", { currency: "polkadot", policy_amount: 11n, reference: "cw-uncertain" });
    await append("resolved", { outcome: "uncertain", reference: "cw-uncertain", candidates: [4, 5] });
    await append("ambiguous", { currency: "polkadot", policy_amount: 13n, reference: "cw-unresolved" });
    await append("ambiguous", { currency: "polkadot", policy_amount: 17n });
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(
      7n + 11n + 13n + 17n,
    );
  });

  it("counts a write found by its look-up once, and releases one later resolved as not applied", async () => {
    const { append, committed } = freshLog("2026-01-02T00:00:00Z");
    await append("ambiguous", { currency: "polkadot", policy_amount: 100n, reference: "cw-found", outcome: "found" });
    await append("submitted", { currency: "polkadot", policy_amount: 100n, reference: "cw-found" });
    await append("ambiguous", { currency: "polkadot", policy_amount: 1000n, reference: "cw-released" });
    await append("resolved", { outcome: "not_found", reference: "cw-released" });
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(1100n);
    await append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-released" });
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(100n);
  });

  it("settles an ambiguous write only by a later record of the same operator and reference", async () => {
    const { clock, append, committed } = freshLog("2026-01-02T00:00:00Z");
    await append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-early" });
    await append("ambiguous", { currency: "polkadot", policy_amount: 3n, reference: "cw-early" });
    await append("ambiguous", { currency: "polkadot", policy_amount: 5n, reference: "cw-other-operator" });
    await append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-other-operator" }, "bob_ops");
    await append("ambiguous", { currency: "polkadot", policy_amount: 9n, reference: "cw-a" });
    await append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-b" });
    clock.now = new Date("2026-01-04T00:00:00Z");
    await append("ambiguous", { currency: "polkadot", policy_amount: 20n, reference: "cw-late" });
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(3n + 5n + 9n + 20n);
    expect(
      await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date("2026-01-03T00:00:00Z") }),
    ).toBe(20n);
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "ethereum", since: new Date(0) })).toBe(0n);
  });

  it("counts a reserved write once, whatever follows it, until a record says it was not applied", async () => {
    const { append, committed } = freshLog("2026-01-02T00:00:00Z");
    const all = async () => committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) });
    await append("reserved", { currency: "polkadot", policy_amount: 1n, reference: "cw-in-flight" });
    await append("reserved", { currency: "polkadot", policy_amount: 10n, reference: "cw-submitted" });
    await append("submitted", { currency: "polkadot", policy_amount: 10n, reference: "cw-submitted" });
    await append("reserved", { currency: "polkadot", policy_amount: 100n, reference: "cw-lost" });
    await append("ambiguous", { currency: "polkadot", policy_amount: 100n, reference: "cw-lost" });
    await append("resolved", { outcome: "not_found", reference: "cw-lost" });
    expect(await all()).toBe(111n);
    await append("reserved", { currency: "polkadot", policy_amount: 1000n, reference: "cw-refused" });
    expect(await all()).toBe(1111n);
    await append("failed", { reference: "cw-refused", outcome: NOT_APPLIED_OUTCOME });
    expect(await all()).toBe(111n);
    await append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-lost" });
    expect(await all()).toBe(11n);
  });

  it("keeps a reservation counted after a failure that does not say the write was not applied", async () => {
    const { append, committed } = freshLog("2026-01-02T00:00:00Z");
    await append("reserved", { currency: "polkadot", policy_amount: 5n, reference: "cw-a" });
    await append("failed", { reference: "cw-a" });
    await append("failed", { reference: "cw-b", outcome: NOT_APPLIED_OUTCOME });
    await append("reserved", { currency: "polkadot", policy_amount: 7n, reference: "cw-b" });
    await append("failed", { reference: "cw-a", outcome: NOT_APPLIED_OUTCOME }, "bob_ops");
    expect(await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(12n);
  });

  it("counts a write in the window when any of its counting records is in it", async () => {
    const { clock, append, committed } = freshLog("2026-01-01T23:59:59Z");
    await append("reserved", { currency: "polkadot", policy_amount: 5n, reference: "cw-edge" });
    clock.now = new Date("2026-01-02T00:00:01Z");
    await append("submitted", { currency: "polkadot", policy_amount: 5n, reference: "cw-edge" });
    expect(
      await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date("2026-01-02T00:00:00Z") }),
    ).toBe(5n);
    expect(
      await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date("2026-01-02T00:00:02Z") }),
    ).toBe(0n);
  });

  it("keeps a write in the window while its newest counting record is, whatever their order in the log (writers' clocks differ)", async () => {
    const { clock, append, committed } = freshLog("2026-01-02T10:00:00Z");
    await append("reserved", { currency: "polkadot", policy_amount: 5n, reference: "cw-skew" });
    clock.now = new Date("2026-01-02T07:00:00Z");
    await append("submitted", { currency: "polkadot", policy_amount: 5n, reference: "cw-skew" });
    expect(
      await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date("2026-01-02T09:00:00Z") }),
    ).toBe(5n);
    expect(
      await committed({ scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date("2026-01-02T10:00:01Z") }),
    ).toBe(0n);
  });
});
