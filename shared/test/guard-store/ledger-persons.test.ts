import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileGuardStore, type AuditInput } from "../../src/index.js";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const alice = { kind: "person", subject: "alice" } as const;
const day = (scope: typeof alice | { kind: "team" }) => ({ scope, currency: "solana_testnet", since: new Date(NOW - 86_400_000) });

function reserved(reference: string): AuditInput {
  return {
    event: "reserved",
    surface: "mcp",
    operator: "treasury-bot",
    person: { subject: "alice", name: "Alice Martin" },
    tool: "create_transaction",
    request_digest: null,
    details: { currency: "solana_testnet", reference, policy_amount: "1000000000" },
  };
}

describe("the file store's ledger and the persons of its writes", () => {
  it("rebuilds from the log a ledger saved without persons (by a program from before people signed in), so no person's day starts again at zero", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "ledger-persons-")), "audit.jsonl");
    const store = new FileGuardStore(path, () => new Date(NOW));
    for (const reference of ["cw-1", "cw-2", "cw-3"]) await store.append(reserved(reference));
    expect(await store.committedSince(day(alice))).toBe(3_000_000_000n);
    await store.close();
    const ledger = JSON.parse(readFileSync(`${path}.ledger.json`, "utf8")) as { format: string; committed: Record<string, unknown>[] };
    expect(ledger.committed.map((entry) => entry.person)).toEqual(["alice", "alice", "alice"]);
    // What an older program saves: its format, and no person on any entry.
    const older = { ...ledger, format: "custody-audit-ledger/1", committed: ledger.committed.map(({ person: _person, ...entry }) => entry) };
    for (const saved of [older, { ...older, format: ledger.format }]) {
      writeFileSync(`${path}.ledger.json`, JSON.stringify(saved));
      const reopened = new FileGuardStore(path, () => new Date(NOW));
      expect(await reopened.committedSince(day(alice))).toBe(3_000_000_000n);
      expect(await reopened.committedSince(day({ kind: "team" }))).toBe(3_000_000_000n);
      await reopened.close();
    }
  });
});
