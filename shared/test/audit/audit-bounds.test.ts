import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_RECORD_LIMIT, AUDIT_STRING_LIMIT, AuditLog, boundedForAudit, committedSince, verifyAuditLog } from "../../src/index.js";

// A refused input is written to the audit log as a bounded preview and its digest, never whole:
// a 2 MB recipient once made a 5 MB record.

function freshLog() {
  return join(mkdtempSync(join(tmpdir(), "audit-bounds-")), "audit.jsonl");
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("bounded audit records", () => {
  it("keeps a blocked dry run of a 2 MB recipient under 4 KB: a preview, the length and the sha256", async () => {
    const path = freshLog();
    const recipient = `\u202E${"9WzDXwBbmkg8".repeat(174_763)}`;
    const record = await new AuditLog(path).append({
      event: "blocked",
      surface: "mcp",
      operator: "treasury-bot",
      tool: "create_transaction",
      request_digest: "ab".repeat(32),
      request: { kind: "send", account: 3, amount: 1_000_000n, recipient },
      checks: [{ code: "RECIPIENT_ADDRESS_FORMAT", severity: "block" }],
      error: `recipient: must be a Solana address, got ${recipient}`,
      details: { stage: "dry_run", echo: [recipient] },
    });
    const line = readFileSync(path, "utf8");
    expect(recipient.length).toBeGreaterThan(2_000_000);
    expect(Buffer.byteLength(line)).toBeLessThan(4096);
    expect(record.request).toEqual({
      kind: "send",
      account: 3,
      amount: "1000000",
      recipient: { preview: `\\u{202E}${"9WzDXwBbmkg8".repeat(5)}9Wz`, length: recipient.length, sha256: sha256(recipient) },
    });
    expect(record.error).toMatch(new RegExp(`^recipient: must be a Solana address.*… \\[${recipient.length + 41} characters, sha256 [0-9a-f]{64}\\]$`));
    expect((record.details?.echo as unknown[])[0]).toMatchObject({ length: recipient.length, sha256: sha256(recipient) });
    expect(line).not.toContain("\u202E");
    expect(verifyAuditLog(path).ok).toBe(true);
  });

  it("keeps strings up to the limit whole, and what the daily limits read", async () => {
    const path = freshLog();
    const data = `0x${"ab".repeat((AUDIT_STRING_LIMIT - 2) / 2)}`;
    expect(data).toHaveLength(AUDIT_STRING_LIMIT);
    const log = new AuditLog(path);
    await log.append({
      event: "reserved",
      surface: "mcp",
      operator: "o",
      tool: "ethereum_stake",
      request_digest: null,
      request: { contract_data: data },
      details: { currency: "ethereum", reference: "cw-1", policy_amount: "32" },
    });
    expect(readFileSync(path, "utf8")).toContain(data);
    expect(committedSince(path, { scope: { kind: "operator" as const, operator: "o" }, currency: "ethereum", since: new Date(0) })).toBe(32n);
  });

  it("caps a record of many small items: the request, then the details, kept as the digest of their JSON", async () => {
    const path = freshLog();
    const many = Array.from({ length: 20_000 }, (_, index) => `item-${index}`);
    const record = await new AuditLog(path).append({
      event: "failed",
      surface: "vscode",
      operator: "o",
      tool: "t",
      request_digest: null,
      request: { many },
      details: { many },
    });
    expect(Buffer.byteLength(readFileSync(path, "utf8"))).toBeLessThan(AUDIT_RECORD_LIMIT);
    expect(record.request).toMatchObject({ omitted: { length: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(record.details).toMatchObject({ omitted: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(verifyAuditLog(path).ok).toBe(true);
  });

  it("leaves values without a long string unchanged", async () => {
    const value = { a: [1, "two", null, true, { b: "x".repeat(AUDIT_STRING_LIMIT) }], c: 5n };
    expect(boundedForAudit(value)).toEqual(value);
  });
});
