import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { AuditLog, committedSince, Currency, Policy, reserveDailyAmount, verifyAuditLog, type ReservablePlan } from "../../src/index.js";

const dot = Currency.parse({ name: "polkadot", units: [{ code: "planck", magnitude: 0 }, { code: "DOT", magnitude: 10 }] });
const policy = Policy.parse({ limits: { polkadot: { max_per_day: { base_units: "10" } } } });
const entry = { surface: "mcp", tool: "polkadot_bond_extra", request_digest: null };
const plan = (reference: string, amount: bigint | undefined, operator = "alice_ops"): ReservablePlan => ({
  operator,
  currency: dot,
  correlation_id: reference,
  policy_amount: amount,
  request: amount === undefined ? { kind: "polkadot_withdraw_unbonded", account: "dot-staking" } : { kind: "polkadot_bond_extra", account: "dot-staking", amount },
});

function freshPath(): string {
  return join(mkdtempSync(join(tmpdir(), "reserve-")), "audit.jsonl");
}

describe("reserving an amount against the daily maximum", () => {
  it("appends a reserved record while the day stays within the maximum, and refuses the one that would pass it", () => {
    const path = freshPath();
    const log = new AuditLog(path);
    const first = reserveDailyAmount(log, policy, plan("cw-1", 6n), entry);
    expect(first).toMatchObject({ reserved: true, record: { event: "reserved", details: { currency: "polkadot", reference: "cw-1", policy_amount: "6" } } });
    const second = reserveDailyAmount(log, policy, plan("cw-2", 5n), entry);
    expect(second).toMatchObject({ reserved: false, finding: { code: "POLICY_MAX_PER_DAY", severity: "block", facts: { amount: "5", spent_last_24h: "6", max: "10" } } });
    expect(reserveDailyAmount(log, policy, plan("cw-3", 4n), entry)).toMatchObject({ reserved: true });
    expect(committedSince(path, { operator: "alice_ops", currency: "polkadot", since: new Date(0) })).toBe(10n);
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("reserves another operator's amount on its own day, and writes nothing for a write that moves no amount", () => {
    const path = freshPath();
    const log = new AuditLog(path);
    expect(reserveDailyAmount(log, policy, plan("cw-a", 10n), entry)).toMatchObject({ reserved: true });
    expect(reserveDailyAmount(log, policy, plan("cw-b", 10n, "bob_ops"), entry)).toMatchObject({ reserved: true });
    expect(reserveDailyAmount(log, policy, plan("cw-c", undefined), entry)).toEqual({ reserved: true, record: null });
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("lets two writers (two processes, each with its own AuditLog on one file) reserve no more than the maximum between them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reserve-procs-"));
    const bundle = join(dir, "shared.mjs");
    buildSync({
      entryPoints: [fileURLToPath(new URL("../../src/index.ts", import.meta.url))],
      outfile: bundle,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "warning",
    });
    const writer = join(dir, "writer.mjs");
    writeFileSync(
      writer,
      `import { existsSync, writeFileSync } from "node:fs";
const [bundle, path, go, prefix, attempts] = process.argv.slice(2);
const shared = await import(bundle);
const currency = shared.Currency.parse({ name: "polkadot", units: [{ code: "planck", magnitude: 0 }, { code: "DOT", magnitude: 10 }] });
const policy = shared.Policy.parse({ limits: { polkadot: { max_per_day: { base_units: "10" } } } });
const log = new shared.AuditLog(path);
writeFileSync(go + "." + prefix, "");
while (!existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
let reserved = 0;
for (let index = 0; index < Number(attempts); index += 1) {
  const plan = { operator: "alice_ops", currency, correlation_id: prefix + "-" + index, policy_amount: 1n, request: { kind: "polkadot_bond_extra" } };
  if (shared.reserveDailyAmount(log, policy, plan, { surface: prefix, tool: "polkadot_bond_extra", request_digest: null }).reserved) reserved += 1;
}
process.stdout.write(String(reserved));
`,
    );
    const path = join(dir, "audit.jsonl");
    const go = join(dir, "go");
    const run = promisify(execFile);
    const writers = ["mcp", "vscode", "mcp2"].map((prefix) => run(process.execPath, [writer, pathToFileURL(bundle).href, path, go, prefix, "8"]));
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
