import { appendFileSync, existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, verifyAuditLog } from "../../src/index.js";

function freshLog() {
  return join(mkdtempSync(join(tmpdir(), "audit-")), "audit.jsonl");
}

const entry = (event: "dry_run" | "submitted", amount: bigint) => ({
  event,
  surface: "mcp",
  operator: "alice_ops",
  tool: "create_transaction",
  request_digest: "ab".repeat(32),
  request: { amount: { value: amount, unit: "lamport" } },
  checks: [{ code: "SEND_BALANCE_OK", severity: "info" }],
});

describe("audit log", () => {
  it("chains each line to the previous one and verifies", () => {
    const path = freshLog();
    const log = new AuditLog(path);
    const first = log.append(entry("dry_run", 10n));
    const second = log.append(entry("submitted", 2n ** 80n));
    expect(second.prev_hash).toBe(first.hash);
    expect(verifyAuditLog(path)).toEqual({ ok: true, records: 2, lastHash: second.hash });
    expect(readFileSync(path, "utf8")).toContain(`"value":"${2n ** 80n}"`);
  });

  it("continues an existing chain after a restart", () => {
    const path = freshLog();
    new AuditLog(path).append(entry("dry_run", 1n));
    const record = new AuditLog(path).append(entry("submitted", 1n));
    expect(record.seq).toBe(1);
    expect(verifyAuditLog(path).ok).toBe(true);
  });

  it("keeps one chain when several writers (one per process) share the file", () => {
    const path = freshLog();
    const first = new AuditLog(path);
    const second = new AuditLog(path);
    for (let index = 0; index < 4; index += 1) {
      first.append(entry("dry_run", BigInt(index)));
      second.append(entry("submitted", BigInt(index)));
    }
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 8 });
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("takes over a lock file left behind by a writer that died", () => {
    const path = freshLog();
    writeFileSync(`${path}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    expect(new AuditLog(path).append(entry("dry_run", 1n)).seq).toBe(0);
  });

  it("refuses to append after a last line that is not intact", () => {
    const path = freshLog();
    const log = new AuditLog(path);
    log.append(entry("dry_run", 1n));
    appendFileSync(path, '{"seq":1,"trunc');
    expect(() => log.append(entry("submitted", 1n))).toThrow(/last line is not an intact audit record/);
  });

  it.each([
    ["an edited amount", (lines: string[]) => [lines[0]!.replace('"value":"10"', '"value":"11"'), lines[1]!]],
    ["a removed line", (lines: string[]) => [lines[1]!]],
    ["swapped lines", (lines: string[]) => [lines[1]!, lines[0]!]],
    ["a line that is not JSON", (lines: string[]) => [lines[0]!, "{"]],
  ])("detects %s", (_name, tamper) => {
    const path = freshLog();
    const log = new AuditLog(path);
    log.append(entry("dry_run", 10n));
    log.append(entry("submitted", 10n));
    const lines = readFileSync(path, "utf8").trim().split("\n");
    writeFileSync(path, `${tamper(lines).join("\n")}\n`);
    expect(verifyAuditLog(path).ok).toBe(false);
    expect(() => new AuditLog(path)).toThrow(/not a valid chain/);
  });
});
