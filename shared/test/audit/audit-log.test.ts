import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, streamVerifyAuditLog, verifyAuditLog } from "../../src/index.js";

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
  it("chains each line to the previous one and verifies", async () => {
    const path = freshLog();
    const log = new AuditLog(path);
    const first = await log.append(entry("dry_run", 10n));
    const second = await log.append(entry("submitted", 2n ** 80n));
    expect(second.prev_hash).toBe(first.hash);
    // A new log starts with its `sealed` record (record 0), then the two.
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 3, lastHash: second.hash });
    expect(readFileSync(path, "utf8")).toContain(`"value":"${2n ** 80n}"`);
  });

  it("continues an existing chain after a restart", async () => {
    const path = freshLog();
    await new AuditLog(path).append(entry("dry_run", 1n));
    const record = await new AuditLog(path).append(entry("submitted", 1n));
    expect(record.seq).toBe(2);
    expect(verifyAuditLog(path).ok).toBe(true);
  });

  it("keeps one chain when several writers (one per process) share the file", async () => {
    const path = freshLog();
    const first = new AuditLog(path);
    const second = new AuditLog(path);
    const appends: Promise<unknown>[] = [];
    for (let index = 0; index < 4; index += 1) {
      appends.push(first.append(entry("dry_run", BigInt(index))), second.append(entry("submitted", BigInt(index))));
    }
    await Promise.all(appends);
    expect(verifyAuditLog(path)).toMatchObject({ ok: true, records: 9 });
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("refuses to append after a last line that is not intact", async () => {
    const path = freshLog();
    const log = new AuditLog(path);
    await log.append(entry("dry_run", 1n));
    appendFileSync(path, '{"seq":1,"trunc');
    await expect(log.append(entry("submitted", 1n))).rejects.toThrow(/last line is not an intact audit record/);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it.each([
    ["an edited amount", (lines: string[]) => [lines[0]!.replace('"value":"10"', '"value":"11"'), lines[1]!]],
    ["a removed line", (lines: string[]) => [lines[1]!]],
    ["swapped lines", (lines: string[]) => [lines[1]!, lines[0]!]],
    ["a line that is not JSON", (lines: string[]) => [lines[0]!, "{"]],
  ])("detects %s", async (_name, tamper) => {
    const path = freshLog();
    const log = new AuditLog(path);
    await log.append(entry("dry_run", 10n));
    await log.append(entry("submitted", 10n));
    const [sealed, ...lines] = readFileSync(path, "utf8").trim().split("\n");
    writeFileSync(path, `${[sealed, ...tamper(lines)].join("\n")}\n`);
    rmSync(`${path}.ledger.json`, { force: true });
    expect(verifyAuditLog(path).ok).toBe(false);
    expect(await streamVerifyAuditLog(path)).toEqual(verifyAuditLog(path));
    // The seal beside the log names a cut or reordered end first; either way the store refuses.
    expect(() => new AuditLog(path)).toThrow(/not a valid chain|was shortened|does not hold its sealed line/);
  });
});
