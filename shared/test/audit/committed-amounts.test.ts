import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, committedSince, NOT_APPLIED_OUTCOME, type AuditEvent } from "../../src/index.js";

function freshLog(start: string) {
  const path = join(mkdtempSync(join(tmpdir(), "audit-")), "audit.jsonl");
  const clock = { now: new Date(start) };
  const log = new AuditLog(path, () => clock.now);
  const append = (event: AuditEvent, details: Record<string, unknown>, operator = "alice_ops") =>
    log.append({ event, surface: "mcp", operator, tool: "create_transaction", request_digest: null, details });
  return { path, clock, append };
}

describe("committed amounts from the audit log", () => {
  it("sums the operator's submitted writes in the currency within the window", () => {
    const { path, clock, append } = freshLog("2026-01-01T00:00:00Z");
    append("submitted", { currency: "polkadot", policy_amount: 5n });
    clock.now = new Date("2026-01-02T06:00:00Z");
    append("submitted", { currency: "polkadot", policy_amount: 2n ** 70n });
    append("dry_run", { currency: "polkadot", policy_amount: 1000n });
    append("submitted", { currency: "polkadot", policy_amount: 1000n }, "bob_ops");
    append("submitted", { currency: "ethereum", policy_amount: 1000n });
    const since = new Date("2026-01-01T12:00:00Z");
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since })).toBe(2n ** 70n);
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(2n ** 70n + 5n);
    expect(committedSince(join(tmpdir(), "missing-audit.jsonl"), { operator: "x", currency: "y", since })).toBe(0n);
  });

  it("counts an ambiguous write that may have happened: not found, uncertain, or never resolved", () => {
    const { path, append } = freshLog("2026-01-02T00:00:00Z");
    append("ambiguous", { currency: "polkadot", policy_amount: 7n, reference: "cw-not-found" });
    append("resolved", { outcome: "not_found", reference: "cw-not-found" });
    append("ambiguous", { currency: "polkadot", policy_amount: 11n, reference: "cw-uncertain" });
    append("resolved", { outcome: "uncertain", reference: "cw-uncertain", candidates: [4, 5] });
    append("ambiguous", { currency: "polkadot", policy_amount: 13n, reference: "cw-unresolved" });
    append("ambiguous", { currency: "polkadot", policy_amount: 17n });
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(7n + 11n + 13n + 17n);
  });

  it("counts a write found by its look-up once, and releases one later resolved as not applied", () => {
    const { path, append } = freshLog("2026-01-02T00:00:00Z");
    append("ambiguous", { currency: "polkadot", policy_amount: 100n, reference: "cw-found", outcome: "found" });
    append("submitted", { currency: "polkadot", policy_amount: 100n, reference: "cw-found" });
    append("ambiguous", { currency: "polkadot", policy_amount: 1000n, reference: "cw-released" });
    append("resolved", { outcome: "not_found", reference: "cw-released" });
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(1100n);
    append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-released" });
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(100n);
  });

  it("settles an ambiguous write only by a later record of the same operator and reference", () => {
    const { path, clock, append } = freshLog("2026-01-02T00:00:00Z");
    append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-early" });
    append("ambiguous", { currency: "polkadot", policy_amount: 3n, reference: "cw-early" });
    append("ambiguous", { currency: "polkadot", policy_amount: 5n, reference: "cw-other-operator" });
    append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-other-operator" }, "bob_ops");
    append("ambiguous", { currency: "polkadot", policy_amount: 9n, reference: "cw-a" });
    append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-b" });
    clock.now = new Date("2026-01-04T00:00:00Z");
    append("ambiguous", { currency: "polkadot", policy_amount: 20n, reference: "cw-late" });
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(3n + 5n + 9n + 20n);
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date("2026-01-03T00:00:00Z") })).toBe(20n);
    expect(committedSince(path, { operator: "alice_ops", currency: "ethereum", since: new Date(0) })).toBe(0n);
  });

  it("counts a reserved write once, whatever follows it, until a record says it was not applied", () => {
    const { path, append } = freshLog("2026-01-02T00:00:00Z");
    const all = () => committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) });
    append("reserved", { currency: "polkadot", policy_amount: 1n, reference: "cw-in-flight" });
    append("reserved", { currency: "polkadot", policy_amount: 10n, reference: "cw-submitted" });
    append("submitted", { currency: "polkadot", policy_amount: 10n, reference: "cw-submitted" });
    append("reserved", { currency: "polkadot", policy_amount: 100n, reference: "cw-lost" });
    append("ambiguous", { currency: "polkadot", policy_amount: 100n, reference: "cw-lost" });
    append("resolved", { outcome: "not_found", reference: "cw-lost" });
    expect(all()).toBe(111n);
    append("reserved", { currency: "polkadot", policy_amount: 1000n, reference: "cw-refused" });
    expect(all()).toBe(1111n);
    append("failed", { reference: "cw-refused", outcome: NOT_APPLIED_OUTCOME });
    expect(all()).toBe(111n);
    append("resolved", { outcome: NOT_APPLIED_OUTCOME, reference: "cw-lost" });
    expect(all()).toBe(11n);
  });

  it("keeps a reservation counted after a failure that does not say the write was not applied", () => {
    const { path, append } = freshLog("2026-01-02T00:00:00Z");
    append("reserved", { currency: "polkadot", policy_amount: 5n, reference: "cw-a" });
    append("failed", { reference: "cw-a" });
    append("failed", { reference: "cw-b", outcome: NOT_APPLIED_OUTCOME });
    append("reserved", { currency: "polkadot", policy_amount: 7n, reference: "cw-b" });
    append("failed", { reference: "cw-a", outcome: NOT_APPLIED_OUTCOME }, "bob_ops");
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(12n);
  });

  it("counts a write in the window when any of its counting records is in it", () => {
    const { path, clock, append } = freshLog("2026-01-01T23:59:59Z");
    append("reserved", { currency: "polkadot", policy_amount: 5n, reference: "cw-edge" });
    clock.now = new Date("2026-01-02T00:00:01Z");
    append("submitted", { currency: "polkadot", policy_amount: 5n, reference: "cw-edge" });
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date("2026-01-02T00:00:00Z") })).toBe(5n);
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date("2026-01-02T00:00:02Z") })).toBe(0n);
  });
});
