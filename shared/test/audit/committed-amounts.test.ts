import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, committedSince } from "../../src/index.js";

describe("committed amounts from the audit log", () => {
  it("sums the operator's submitted writes in the currency within the window", () => {
    const path = join(mkdtempSync(join(tmpdir(), "audit-")), "audit.jsonl");
    let now = new Date("2026-01-01T00:00:00Z");
    const log = new AuditLog(path, () => now);
    const write = (event: "submitted" | "dry_run", operator: string, currency: string, amount: bigint) =>
      log.append({ event, surface: "mcp", operator, tool: "create_transaction", request_digest: null, details: { currency, policy_amount: amount } });
    write("submitted", "alice_ops", "polkadot", 5n);
    now = new Date("2026-01-02T06:00:00Z");
    write("submitted", "alice_ops", "polkadot", 2n ** 70n);
    write("dry_run", "alice_ops", "polkadot", 1000n);
    write("submitted", "bob_ops", "polkadot", 1000n);
    write("submitted", "alice_ops", "ethereum", 1000n);
    const since = new Date("2026-01-01T12:00:00Z");
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since })).toBe(2n ** 70n);
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(2n ** 70n + 5n);
    expect(committedSince(join(tmpdir(), "missing-audit.jsonl"), { operator: "x", currency: "y", since })).toBe(0n);
  });
});
