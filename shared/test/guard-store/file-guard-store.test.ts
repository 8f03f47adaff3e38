import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { committedSince, verifyAuditLog } from "../../src/index.js";
import { bundleShared } from "./shared-bundle.js";

// The promises every store keeps are checked for this one and the PostgreSQL one by one suite
// (test/guard-store/guard-store-behaviours.ts); here, what only files can show: separate processes.
describe("the file guard store's reservation", () => {
  it("lets two writers (two processes, each with its own store on one file) reserve no more than the maximum between them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reserve-procs-"));
    const bundle = bundleShared(dir);
    const writer = join(dir, "writer.mjs");
    writeFileSync(
      writer,
      'import { existsSync, writeFileSync } from "node:fs";\n' +
        "const [bundle, path, go, prefix, attempts] = process.argv.slice(2);\n" +
        "const shared = await import(bundle);\n" +
        'const currency = shared.Currency.parse({ name: "polkadot", units: [{ code: "planck", magnitude: 0 }, { code: ' +
        '"DOT", magnitude: 10 }] });\n' +
        'const policy = shared.Policy.parse({ limits: { polkadot: { max_per_day: { base_units: "10" } } } });\n' +
        "const store = new shared.FileGuardStore(path);\n" +
        'writeFileSync(go + "." + prefix, "");\n' +
        "while (!existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);\n" +
        "let reserved = 0;\n" +
        "for (let index = 0; index < Number(attempts); index += 1) {\n" +
        '  const reference = prefix + "-" + index;\n' +
        "  const result = await store.reserve({\n" +
        '    record: { event: "reserved", surface: prefix, operator: "alice_ops", tool: "polkadot_bond_extra", ' +
        'request_digest: null, details: { currency: "polkadot", reference, policy_amount: "1", fingerprint: reference ' +
        "} },\n" +
        '    operator: "alice_ops", fingerprint: reference, reference, duplicatesSince: new Date(0), repeatOf: null,\n' +
        '    limits: shared.limitSetsFor(policy, shared.grantFor(policy, null), "alice_ops").map((set) => ({ scope: ' +
        'set.scope, currency: "polkadot", since: new Date(0), check: (spent) => shared.checkDailyLimit(set, currency, ' +
        "1n, spent) })),\n" +
        "  });\n" +
        "  if (result.reserved) reserved += 1;\n" +
        "}\n" +
        "process.stdout.write(String(reserved));\n",
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
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 11 });
    expect(committedSince(path, { scope: { kind: "operator" as const, operator: "alice_ops" }, currency: "polkadot", since: new Date(0) })).toBe(10n);
  }, 60_000);
});
