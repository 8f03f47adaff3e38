import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readLedgerFile, writeLedgerFile } from "../../src/audit/ledger-file.js";
import {
  AuditLedger,
  AuditSealKey,
  AuditLog,
  auditHash,
  canonicalJson,
  committedSince,
  FileGuardStore,
  foldTrace,
  GENESIS_HASH,
  LEDGER_KEEPS_MS,
  type AuditRecord,
  type WriteTrace,
} from "../../src/index.js";

const HOUR_MS = 60 * 60 * 1000;
const START = Date.parse("2026-03-01T00:00:00Z");
const OPERATORS = ["alice_ops", "bob_ops"];
const CURRENCIES = ["polkadot", "solana_testnet"];
const FINGERPRINTS = ["f1", "f2"];
const REFERENCES = ["cw-1", "cw-2", "cw-3", "cw-4"];

const work = mkdtempSync(join(tmpdir(), "audit-ledger-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One record of a write's life, at some hours after the one before (a writer whose clock lags gives a negative step). */
const recordShape = fc.record({
  event: fc.constantFrom("reserved", "submitted", "ambiguous", "resolved", "failed", "dry_run"),
  operator: fc.constantFrom(...OPERATORS),
  reference: fc.option(fc.constantFrom(...REFERENCES), { nil: undefined }),
  currency: fc.option(fc.constantFrom(...CURRENCIES), { nil: undefined }),
  amount: fc.option(fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 80n }).map(String), fc.constant("1.5")), { nil: undefined }),
  outcome: fc.option(fc.constantFrom("not_applied", "found", "not_found"), { nil: undefined }),
  fingerprint: fc.option(fc.constantFrom(...FINGERPRINTS), { nil: undefined }),
  transactionId: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
  hoursAfter: fc.integer({ min: -3, max: 20 }),
});
type RecordShape = typeof recordShape extends fc.Arbitrary<infer T> ? T : never;

/** The shapes as a valid log (each line hashed and chained as AuditLog writes it); returns the records and the log's path. */
function writeChain(shapes: RecordShape[]): { path: string; records: AuditRecord[] } {
  const path = join(mkdtempSync(join(work, "log-")), "audit.jsonl");
  let previous = GENESIS_HASH;
  let at = START;
  const records = shapes.map((shape, seq) => {
    at += shape.hoursAfter * HOUR_MS;
    const details = Object.fromEntries(
      Object.entries({
        reference: shape.reference,
        currency: shape.currency,
        policy_amount: shape.amount,
        outcome: shape.outcome,
        fingerprint: shape.fingerprint,
      }).filter(([, value]) => value !== undefined),
    );
    const unsigned = {
      seq,
      at: new Date(at).toISOString(),
      event: shape.event,
      surface: "mcp",
      operator: shape.operator,
      tool: "create_transaction",
      request_digest: null,
      transaction_id: shape.transactionId,
      details,
      prev_hash: previous,
    };
    const record = { ...unsigned, hash: auditHash(unsigned) } as AuditRecord;
    previous = record.hash;
    return record;
  });
  writeFileSync(path, records.map((record) => `${canonicalJson(record)}\n`).join(""));
  return { path, records };
}

/** The moments asked about: every hour from before the first record to after the last. */
function moments(records: AuditRecord[]): Date[] {
  const times = records.map((record) => Date.parse(record.at));
  const moments: Date[] = [];
  for (let at = Math.min(START, ...times) - HOUR_MS; at <= Math.max(START, ...times) + HOUR_MS; at += HOUR_MS) moments.push(new Date(at));
  return moments;
}

/** What the ledger must answer: every record folded, nothing forgotten. */
function everyTrace(records: AuditRecord[]): Map<string, WriteTrace> {
  const traces = new Map<string, WriteTrace>();
  for (const record of records) foldTrace(traces, record);
  return traces;
}

function recentOf(traces: Map<string, WriteTrace>, query: { operator: string; fingerprint: string; since: Date }): WriteTrace[] {
  return [...traces.values()]
    .filter((trace) => trace.operator === query.operator && trace.fingerprint === query.fingerprint && new Date(trace.reserved_at) >= query.since)
    .sort((a, b) => b.reserved_at.localeCompare(a.reserved_at));
}

/** A ledger folded record by record, forgetting all it may after each one, then saved and read back. */
function foldedAndRestored(records: AuditRecord[]): AuditLedger {
  const ledger = new AuditLedger();
  let end = 0;
  for (const record of records) {
    end += Buffer.byteLength(`${canonicalJson(record)}\n`);
    ledger.fold(record, end);
    ledger.prune();
  }
  const file = join(mkdtempSync(join(work, "ledger-")), "ledger.json");
  const key = new AuditSealKey(randomBytes(32));
  writeLedgerFile(file, ledger, key);
  const restored = readLedgerFile(file, key, "audit.jsonl");
  if (restored === null) throw new Error("the saved ledger could not be read back");
  return restored;
}

describe("the audit ledger", () => {
  it("answers as one pass over the whole log does, for every moment it keeps; for an older one the store reads the log", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordShape, { minLength: 1, maxLength: 40 }), async (shapes) => {
        const { path, records } = writeChain(shapes);
        const newest = Math.max(...records.map((record) => Date.parse(record.at)));
        const traces = everyTrace(records);
        const ledgers = [new AuditLog(path).ledger(), new AuditLog(path).ledger(), foldedAndRestored(records)];
        const store = new FileGuardStore(path);
        for (const since of moments(records)) {
          const kept = since.getTime() >= newest - LEDGER_KEEPS_MS;
          for (const operator of OPERATORS) {
            for (const currency of CURRENCIES) {
              const query = { scope: { kind: "operator" as const, operator }, currency, since };
              const expected = committedSince(path, query);
              for (const ledger of ledgers) {
                const answer = ledger.committedSince(query);
                if (answer !== null) expect(answer).toBe(expected);
                else expect(kept).toBe(false);
              }
              expect(await store.committedSince(query)).toBe(expected);
            }
            for (const fingerprint of FINGERPRINTS) {
              const query = { operator, fingerprint, since };
              const expected = recentOf(traces, query);
              for (const ledger of ledgers) {
                const answer = ledger.recentWrites(query);
                if (answer !== null) expect(answer).toEqual(expected);
                else expect(kept).toBe(false);
              }
              expect(await store.recentWrites(query)).toEqual(expected);
            }
          }
        }
        for (const reference of REFERENCES) {
          const expected = traces.get(reference) ?? null;
          for (const ledger of ledgers) {
            const answer = ledger.writeByReference(reference);
            if (answer !== undefined) expect(answer).toEqual(expected);
          }
          expect(await store.writeByReference(reference)).toEqual(expected);
        }
      }),
      { numRuns: 100 },
    );
  }, 60_000);

  it("keeps the last 25 hours whatever the log's age: the answers for the day are never left to the log", () => {
    const shapes = Array.from({ length: 300 }, (_, index): RecordShape => ({
      event: "reserved",
      operator: "alice_ops",
      reference: `cw-${index}`,
      currency: "polkadot",
      amount: "1",
      outcome: undefined,
      fingerprint: "f1",
      transactionId: null,
      hoursAfter: 1,
    }));
    const { path } = writeChain(shapes);
    const ledger = new AuditLog(path).ledger();
    const day = { scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(START + 300 * HOUR_MS - 24 * HOUR_MS) };
    expect(ledger.committedSince(day)).toBe(25n);
    expect(ledger.recentWrites({ operator: "alice_ops", fingerprint: "f1", since: day.since })).toHaveLength(25);
    expect(ledger.committedSince({ ...day, since: new Date(START) })).toBeNull();
    expect(ledger.state().traces.length).toBeLessThanOrEqual(26);
  });
});
