import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { committedSince, FileGuardStore, verifyAuditLog, type AuditInput, type ReservationRequest } from "../../src/index.js";
import { writeGeneratedLog } from "../audit/generated-log.js";

const RECORDS = 200_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-06-01T12:00:00Z");
const OPERATORS = ["alice_ops", "bob_ops"];
const CURRENCIES = ["polkadot", "solana_testnet"];
const LEDGER_SAVED_EVERY_BYTES = 64 * 1024;

let work: string;
/** A log of RECORDS records over the 400 days before NOW (a write every 4 records), and its ledger as the first open saved it. */
let generated: string;
let wholeBytes: number;
/** Every operator's day in every currency on the generated log, read from the whole log in one pass: what the ledger must agree with. */
let generatedDays: bigint[];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "file-ledger-"));
  generated = join(work, "generated.jsonl");
  wholeBytes = writeGeneratedLog(generated, {
    records: RECORDS,
    fromMs: NOW - 400 * DAY_MS,
    toMs: NOW - 60_000,
    operators: OPERATORS,
    currencies: CURRENCIES,
    amount: 3n,
  }).bytes;
  generatedDays = OPERATORS.flatMap((operator) => CURRENCIES.map((currency) => committedSince(generated, dayOf(operator, currency))));
  expect(generatedDays.every((total) => total > 0n)).toBe(true);
  const first = new FileGuardStore(generated, () => new Date(NOW));
  expect(first.bytesRead).toBe(wholeBytes);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the generated log, its ledger and its seal, to change. */
function copyOfLog(): string {
  const path = join(mkdtempSync(join(work, "copy-")), "audit.jsonl");
  for (const suffix of ["", ".ledger.json", ".seal"]) copyFileSync(`${generated}${suffix}`, `${path}${suffix}`);
  return path;
}

/** Puts the ledger of another (sealed, small) log beside the log: its checkpoint is not a line of this one. */
async function ledgerOfAnotherLog(path: string): Promise<void> {
  const other = join(mkdtempSync(join(work, "other-")), "audit.jsonl");
  const store = new FileGuardStore(other, () => new Date(NOW));
  await store.append(dryRun);
  await store.close();
  copyFileSync(`${other}.ledger.json`, `${path}.ledger.json`);
}

function dayOf(operator: string, currency: string) {
  return { scope: { kind: "operator" as const, operator }, currency, since: new Date(NOW - DAY_MS) };
}

/** The generated log's days with `extra` more for alice in polkadot (the first of them). */
function generatedDaysAnd(extra: bigint): bigint[] {
  return generatedDays.map((total, index) => (index === 0 ? total + extra : total));
}

async function storeDays(store: FileGuardStore): Promise<bigint[]> {
  return Promise.all(OPERATORS.flatMap((operator) => CURRENCIES.map((currency) => store.committedSince(dayOf(operator, currency)))));
}

function reservation(reference: string, fingerprint: string, amount: bigint): ReservationRequest {
  return {
    record: {
      event: "reserved",
      surface: "mcp",
      operator: "alice_ops",
      tool: "create_transaction",
      request_digest: null,
      details: { currency: "polkadot", reference, policy_amount: amount.toString(), fingerprint },
    },
    operator: "alice_ops",
    fingerprint,
    reference,
    duplicatesSince: new Date(NOW - DAY_MS),
    repeatOf: null,
    limits: [{ scope: { kind: "operator", operator: "alice_ops" }, currency: "polkadot", since: new Date(NOW - DAY_MS), check: () => null }],
  };
}

const dryRun: AuditInput = { event: "dry_run", surface: "mcp", operator: "alice_ops", tool: "create_transaction", request_digest: null };

/** The fingerprint the generator gives write number `write` (its records are 4 × write to 4 × write + 3). */
const fingerprintOf = (write: number) => write.toString(16).padStart(64, "0");

describe("the file store on a log of 200,000 records", () => {
  it("opens from its ledger and answers a dry run's and a confirmation's questions reading only the end of the log", async () => {
    const path = copyOfLog();
    const store = new FileGuardStore(path, () => new Date(NOW));
    expect(store.bytesRead).toBeLessThan(8 * 1024);
    expect(await storeDays(store)).toEqual(generatedDays);
    // The newest generated write: alice's (write numbers alternate between the two operators).
    const newest = RECORDS / 4 - 2;
    expect(await store.recentWrites({ operator: "alice_ops", fingerprint: fingerprintOf(newest), since: new Date(NOW - DAY_MS) })).toMatchObject([
      { reference: `cw-gen-${newest}`, status: "submitted", transaction_id: newest + 1 },
    ]);
    await store.append(dryRun);
    expect(await store.reserve(reservation("cw-fresh", fingerprintOf(newest), 5n))).toMatchObject({
      reserved: false,
      reason: "duplicate",
      earlier: { reference: `cw-gen-${newest}` },
    });
    expect(await store.reserve(reservation("cw-fresh", "e".repeat(64), 5n))).toMatchObject({ reserved: true });
    expect(await storeDays(store)).toEqual(generatedDaysAnd(5n));
    expect(await store.writeByReference("cw-fresh")).toMatchObject({ status: "in_flight" });
    expect(store.bytesRead).toBeLessThan(32 * 1024);
    expect(statSync(path).size).toBeGreaterThan(wholeBytes);
  });

  it.each([
    ["deleted", (path: string) => rmSync(`${path}.ledger.json`)],
    ["not JSON", (path: string) => writeFileSync(`${path}.ledger.json`, "{")],
    ["of another log", ledgerOfAnotherLog],
  ])(
    "rebuilds a ledger that is %s from the log, with the same answers",
    async (_what, spoil) => {
      const path = copyOfLog();
      await spoil(path);
      const store = new FileGuardStore(path, () => new Date(NOW));
      // One pass over the log, after at most a look at the line its checkpoint names.
      expect(store.bytesRead).toBeGreaterThanOrEqual(wholeBytes);
      expect(store.bytesRead).toBeLessThan(wholeBytes + 8 * 1024);
      expect(await storeDays(store)).toEqual(generatedDays);
      // Saved again: the next opener reads only the end.
      expect(new FileGuardStore(path, () => new Date(NOW)).bytesRead).toBeLessThan(8 * 1024);
    },
    60_000,
  );

  it("catches up a ledger behind the log, reading only the lines appended since", async () => {
    const path = copyOfLog();
    const behind = readFileSync(`${path}.ledger.json`, "utf8");
    const writer = new FileGuardStore(path, () => new Date(NOW));
    for (let index = 0; index < 20; index += 1)
      expect(await writer.reserve(reservation(`cw-later-${index}`, `${index}`.padStart(64, "a"), 1n))).toMatchObject({ reserved: true });
    await writer.close();
    writeFileSync(`${path}.ledger.json`, behind);
    const appended = statSync(path).size - wholeBytes;
    const reader = new FileGuardStore(path, () => new Date(NOW));
    expect(reader.bytesRead).toBeGreaterThanOrEqual(appended);
    // Besides the lines appended: the line the ledger names and the sealed last line, read backwards.
    expect(reader.bytesRead).toBeLessThan(appended + 12 * 1024);
    expect(await storeDays(reader)).toEqual(generatedDaysAnd(20n));
    expect(await reader.writeByReference("cw-later-19")).toMatchObject({ status: "in_flight" });
  }, 60_000);

  it("saves the ledger as the log grows, so that a start never catches up on much", async () => {
    const path = copyOfLog();
    const writer = new FileGuardStore(path, () => new Date(NOW));
    const note = { note: "n".repeat(4096) };
    while (statSync(path).size - wholeBytes < 3 * LEDGER_SAVED_EVERY_BYTES) await writer.append({ ...dryRun, details: note });
    await writer.reserve(reservation("cw-last", "d".repeat(64), 7n));
    // The writer is not closed (a process killed): the saved ledger is at most one interval behind.
    const reader = new FileGuardStore(path, () => new Date(NOW));
    expect(reader.bytesRead).toBeLessThan(LEDGER_SAVED_EVERY_BYTES + 8 * 1024);
    expect(await storeDays(reader)).toEqual(generatedDaysAnd(7n));
  }, 60_000);

  it("verifies from the checkpoint at the start: a broken line after it refuses the store naming it; one before it is left to verify-audit", async () => {
    const path = copyOfLog();
    const lines = readFileSync(path, "utf8").split("\n");
    // Line 11 (seq 10) is a reserved record: its amount changes, its length does not.
    const edited = lines.map((line, index) => (index === 10 ? line.replace('"policy_amount":"3"', '"policy_amount":"4"') : line));
    expect(edited[10]).not.toBe(lines[10]);
    writeFileSync(path, edited.join("\n"));
    expect(new FileGuardStore(path, () => new Date(NOW)).bytesRead).toBeLessThan(8 * 1024);
    expect(verifyAuditLog(path)).toMatchObject({ ok: false, line: 11 });

    const after = copyOfLog();
    const writer = new FileGuardStore(after, () => new Date(NOW));
    await writer.append(dryRun);
    await writer.append({ ...dryRun, details: { note: "seven" } });
    // A line after the edited one: the sealed last line stays intact, so the chain check is what finds it.
    await writer.append(dryRun);
    writeFileSync(after, readFileSync(after, "utf8").replace('"note":"seven"', '"note":"eight"'));
    expect(() => new FileGuardStore(after, () => new Date(NOW))).toThrow(
      `audit log ${after} is not a valid chain (line ${RECORDS + 2}: hash does not match the line's content)`,
    );
  });
});
