import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkDailyLimit, committedSince, Currency, FileGuardStore, Policy, verifyAuditLog, type ReservationRequest } from "../../src/index.js";
import { bundleShared } from "./shared-bundle.js";

const dot = Currency.parse({ name: "polkadot", units: [{ code: "planck", magnitude: 0 }, { code: "DOT", magnitude: 10 }] });
const policy = Policy.parse({ limits: { polkadot: { max_per_day: { base_units: "10" } } } });
const FINGERPRINT = "f".repeat(64);

/** A reservation of `amount` planck by the operator, one write per reference. */
function reservation(reference: string, amount: bigint, options: { operator?: string; fingerprint?: string; repeatOf?: string | null } = {}): ReservationRequest {
  const operator = options.operator ?? "alice_ops";
  const fingerprint = options.fingerprint ?? `${reference.padEnd(64, "0")}`;
  return {
    record: { event: "reserved", surface: "mcp", operator, tool: "polkadot_bond_extra", request_digest: null, details: { currency: "polkadot", reference, policy_amount: amount.toString(), fingerprint, ...(options.repeatOf ? { repeat_of: options.repeatOf } : {}) } },
    operator,
    fingerprint,
    reference,
    duplicatesSince: new Date(0),
    repeatOf: options.repeatOf ?? null,
    limit: { currency: "polkadot", amount, since: new Date(0), check: (spent) => checkDailyLimit(policy, dot, amount, spent) },
  };
}

function freshPath(): string {
  return join(mkdtempSync(join(tmpdir(), "guard-store-")), "audit.jsonl");
}

describe("the file guard store's reservation", () => {
  it("appends a reserved record while the day stays within the maximum, and refuses the one that would pass it", async () => {
    const path = freshPath();
    const store = new FileGuardStore(path);
    expect(await store.reserve(reservation("cw-1", 6n))).toMatchObject({ reserved: true, record: { event: "reserved", details: { currency: "polkadot", reference: "cw-1", policy_amount: "6" } } });
    expect(await store.reserve(reservation("cw-2", 5n))).toMatchObject({
      reserved: false,
      reason: "daily_limit",
      finding: { code: "POLICY_MAX_PER_DAY", severity: "block", facts: { amount: "5", spent_last_24h: "6", max: "10" } },
    });
    expect(await store.reserve(reservation("cw-3", 4n))).toMatchObject({ reserved: true });
    expect(await store.committedSince({ operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(10n);
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("refuses a second write of the same intent while the first stands, names it, and lets the acknowledged repeat through", async () => {
    const store = new FileGuardStore(freshPath());
    expect(await store.reserve(reservation("cw-a", 1n, { fingerprint: FINGERPRINT }))).toMatchObject({ reserved: true });
    const twice = await store.reserve(reservation("cw-b", 1n, { fingerprint: FINGERPRINT }));
    expect(twice).toMatchObject({ reserved: false, reason: "duplicate", earlier: { reference: "cw-a", status: "in_flight", transaction_id: null } });
    await store.append({ event: "submitted", surface: "mcp", operator: "alice_ops", tool: "polkadot_bond_extra", request_digest: null, transaction_id: 41, details: { reference: "cw-a" } });
    expect(await store.reserve(reservation("cw-c", 1n, { fingerprint: FINGERPRINT, repeatOf: "cw-a" }))).toMatchObject({ reserved: false, reason: "duplicate", earlier: { transaction_id: 41 } });
    expect(await store.reserve(reservation("cw-d", 1n, { fingerprint: FINGERPRINT, repeatOf: "41" }))).toMatchObject({ reserved: true });
    expect(await store.writeByReference("cw-d")).toMatchObject({ status: "in_flight", repeat_of: "41" });
    // Another operator's identical-looking write is its own.
    expect(await store.reserve(reservation("cw-e", 1n, { fingerprint: FINGERPRINT, operator: "bob_ops" }))).toMatchObject({ reserved: true });
  });

  it("frees the intent of a write that certainly did not happen", async () => {
    const store = new FileGuardStore(freshPath());
    expect(await store.reserve(reservation("cw-x", 1n, { fingerprint: FINGERPRINT }))).toMatchObject({ reserved: true });
    await store.append({ event: "failed", surface: "mcp", operator: "alice_ops", tool: "polkadot_bond_extra", request_digest: null, details: { reference: "cw-x", outcome: "not_applied" } });
    expect(await store.reserve(reservation("cw-y", 1n, { fingerprint: FINGERPRINT }))).toMatchObject({ reserved: true });
  });

  it("lets two writers (two processes, each with its own store on one file) reserve no more than the maximum between them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reserve-procs-"));
    const bundle = bundleShared(dir);
    const writer = join(dir, "writer.mjs");
    writeFileSync(
      writer,
      `import { existsSync, writeFileSync } from "node:fs";
const [bundle, path, go, prefix, attempts] = process.argv.slice(2);
const shared = await import(bundle);
const currency = shared.Currency.parse({ name: "polkadot", units: [{ code: "planck", magnitude: 0 }, { code: "DOT", magnitude: 10 }] });
const policy = shared.Policy.parse({ limits: { polkadot: { max_per_day: { base_units: "10" } } } });
const store = new shared.FileGuardStore(path);
writeFileSync(go + "." + prefix, "");
while (!existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
let reserved = 0;
for (let index = 0; index < Number(attempts); index += 1) {
  const reference = prefix + "-" + index;
  const result = await store.reserve({
    record: { event: "reserved", surface: prefix, operator: "alice_ops", tool: "polkadot_bond_extra", request_digest: null, details: { currency: "polkadot", reference, policy_amount: "1", fingerprint: reference } },
    operator: "alice_ops", fingerprint: reference, reference, duplicatesSince: new Date(0), repeatOf: null,
    limit: { currency: "polkadot", amount: 1n, since: new Date(0), check: (spent) => shared.checkDailyLimit(policy, currency, 1n, spent) },
  });
  if (result.reserved) reserved += 1;
}
process.stdout.write(String(reserved));
`,
    );
    const path = join(dir, "audit.jsonl");
    const go = join(dir, "go");
    const run = promisify(execFile);
    const writers = ["mcp", "vscode", "mcp2"].map((prefix) => run(process.execPath, [writer, bundle, path, go, prefix, "8"]));
    // Every writer is ready and waiting on the go file before the first reservation is tried.
    const ready = () => ["mcp", "vscode", "mcp2"].every((prefix) => existsSync(`${go}.${prefix}`));
    for (let waited = 0; !ready(); waited += 10) {
      if (waited > 30_000) throw new Error("the writer processes did not start");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    writeFileSync(go, "");
    const reserved = (await Promise.all(writers)).map(({ stdout }) => Number.parseInt(stdout, 10));
    expect(reserved.reduce((sum, count) => sum + count, 0)).toBe(10);
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 10 });
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(10n);
  }, 60_000);
});

describe("the file guard store's intents", () => {
  const intent = (nonce: string, fingerprint = FINGERPRINT) => ({ fingerprint, nonce, operator: "alice_ops", expires_at: Date.now() + 60_000, sealed: JSON.stringify({ nonce }) });

  it("redeems a nonce once, ever; a newer dry run of the same intent voids the older one", async () => {
    const store = new FileGuardStore(freshPath());
    await store.prepareIntent(intent("a".repeat(32)));
    await store.prepareIntent(intent("b".repeat(32)));
    expect(await store.redeemIntent("a".repeat(32))).toMatchObject({ outcome: "superseded" });
    expect(await store.redeemIntent("b".repeat(32))).toEqual({ outcome: "redeemed", sealed: JSON.stringify({ nonce: "b".repeat(32) }) });
    expect(await store.redeemIntent("b".repeat(32))).toEqual({ outcome: "reused", reference: null });
    await store.linkNonce("b".repeat(32), "cw-zz");
    expect(await store.redeemIntent("b".repeat(32))).toEqual({ outcome: "reused", reference: "cw-zz" });
    expect(await store.redeemIntent("c".repeat(32))).toEqual({ outcome: "unknown" });
  });

  it("are shared by two stores on one file (two processes)", async () => {
    const path = freshPath();
    await new FileGuardStore(path).prepareIntent(intent("d".repeat(32), "e".repeat(64)));
    expect(await new FileGuardStore(path).redeemIntent("d".repeat(32))).toMatchObject({ outcome: "redeemed" });
    expect(await new FileGuardStore(path).redeemIntent("d".repeat(32))).toMatchObject({ outcome: "reused" });
  });
});
