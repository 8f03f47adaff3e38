import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, AuditSealError, AuditSealKey, ledgerPathOf, LockBusyError, sealPathOf } from "../../src/index.js";
import { HOLDING_MAX_BYTES, withFileLock } from "../../src/audit/file-lock.js";
import { LEDGER_MAX_BYTES, readLedgerFile } from "../../src/audit/ledger-file.js";
import { lineEndingAt, streamLines } from "../../src/audit/log-lines.js";
import { newOwner } from "../../src/audit/lock-owner.js";
import { SEAL_MAX_BYTES } from "../../src/audit/seal-file.js";
import { registeredSeal, registerPathOf, REGISTER_MAX_BYTES } from "../../src/audit/sealed-log-register.js";
import { ENTRY_MAX_BYTES, FileIntents } from "../../src/guard-store/file-intents.js";
import { KEY_FILE_MAX_BYTES, readKeyBytesFile, readLocalSecretFile } from "../../src/loopback/local-secret.js";
import { PLANTED, ruleOf, withPlanted, type Planted } from "./planted-files.js";

const entry = {
  event: "dry_run" as const,
  surface: "mcp" as const,
  operator: "alice_ops",
  tool: "create_transaction",
  request_digest: "ab".repeat(32),
  request: { amount: { value: 10n, unit: "lamport" } },
  checks: [],
};

/** A sealed log with one record, its ledger saved, and its key's register (the key kept in a file of the folder). */
async function sealedLog(): Promise<{ log: string; key: AuditSealKey }> {
  const dir = mkdtempSync(join(tmpdir(), "store-files-"));
  const key = new AuditSealKey(randomBytes(32), join(dir, "seal.key"));
  const log = join(dir, "audit.jsonl");
  const audit = new AuditLog(log, undefined, { sealKey: key });
  await audit.append(entry);
  audit.close();
  return { log, key };
}

const reopen = (log: string, key: AuditSealKey) => new AuditLog(log, undefined, { sealKey: key });

describe.each(PLANTED)("a store's own file with %s in its place is refused, never waited on nor read without end", (planted: Planted) => {
  const rule = ruleOf(planted);

  it("the seal: the store does not open, naming the seal and the rule", async () => {
    const { log, key } = await sealedLog();
    const opened = withPlanted(sealPathOf(log), planted, SEAL_MAX_BYTES, () => reopen(log, key));
    await expect(opened).rejects.toThrow(AuditSealError);
    await expect(withPlanted(sealPathOf(log), planted, SEAL_MAX_BYTES, () => reopen(log, key))).rejects.toThrow(
      new RegExp(`its seal ${sealPathOf(log)} ${rule}`),
    );
  });

  it("the ledger: not read, so rebuilt from the log (as one cut short is), and saved again as a file", async () => {
    const { log, key } = await sealedLog();
    const ledger = ledgerPathOf(log);
    const read = await withPlanted(ledger, planted, LEDGER_MAX_BYTES, () => readLedgerFile(ledger, key, log));
    expect(read).toBeNull();
    await withPlanted(ledger, planted, LEDGER_MAX_BYTES, async () => {
      const audit = reopen(log, key);
      await audit.append(entry);
      expect(audit.ledger().checkpoint?.seq).toBe(2);
      expect(lstatSync(ledger).isFile()).toBe(true);
    });
  });

  it("the key's register: says nothing, as one cut short", async () => {
    const { log, key } = await sealedLog();
    const path = registerPathOf(key, log) as string;
    expect(registeredSeal(key, log)).not.toBeNull();
    expect(await withPlanted(path, planted, REGISTER_MAX_BYTES, () => registeredSeal(key, log))).toBeNull();
  });

  it("a dry run's entry: unreadable, so its confirmation is refused as unknown", async () => {
    const dir = mkdtempSync(join(tmpdir(), "store-intents-"));
    const intents = new FileIntents(dir, () => new Date());
    const nonce = "a".repeat(32);
    intents.prepare({ fingerprint: "f", nonce, operator: "alice_ops", expires_at: Date.now() + 60_000, sealed: "{}" });
    expect(intents.lookUp(nonce).outcome).toBe("open");
    const found = await withPlanted(join(dir, "prepared", nonce), planted, ENTRY_MAX_BYTES, () => intents.lookUp(nonce));
    expect(found).toEqual({ outcome: "unknown" });
  });

  it("the lock: refused at once, naming the lock and the rule (no holder ever removes it)", async () => {
    const lock = join(mkdtempSync(join(tmpdir(), "store-lock-")), "audit.lock");
    // For "too large": a live holder (this process), so only the size refuses it.
    writeFileSync(lock, JSON.stringify(newOwner()));
    const taken = withPlanted(lock, planted, HOLDING_MAX_BYTES, () => withFileLock(lock, () => "taken", { waitMs: 1000 }));
    await expect(taken).rejects.toThrow(LockBusyError);
    writeFileSync(lock, JSON.stringify(newOwner()));
    const again = withPlanted(lock, planted, HOLDING_MAX_BYTES, () => withFileLock(lock, () => "taken", { waitMs: 1000 }));
    await expect(again).rejects.toThrow(new RegExp(`lock ${lock} ${rule}`));
  });

  it("a key file: the start's error names the setting, the file and the rule, never the content", async () => {
    const dir = mkdtempSync(join(tmpdir(), "store-keys-"));
    const keyFile = join(dir, "token.key");
    writeFileSync(keyFile, randomBytes(32));
    const read = withPlanted(keyFile, planted, KEY_FILE_MAX_BYTES, () => readKeyBytesFile(keyFile, "--token-secret-file"));
    await expect(read).rejects.toThrow(`--token-secret-file: ${keyFile} ${rule}`);
    const secretFile = join(dir, "emulator.key");
    writeFileSync(secretFile, "s".repeat(40));
    const secret = withPlanted(secretFile, planted, KEY_FILE_MAX_BYTES, () => readLocalSecretFile(secretFile, "--emulator-key-file"));
    await expect(secret).rejects.toThrow(`--emulator-key-file: ${secretFile} ${rule}`);
  });
});

describe.each(PLANTED.filter((planted) => planted !== "too large"))("the audit log with %s in its place (a log has no size limit)", (planted) => {
  it("is refused by every reader, naming it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "store-log-"));
    const log = join(dir, "audit.jsonl");
    const key = new AuditSealKey(randomBytes(32));
    const refused = `audit log ${log} is not a regular file`;
    await expect(withPlanted(log, planted, 0, () => reopen(log, key))).rejects.toThrow(refused);
    await expect(
      withPlanted(log, planted, 0, async () => {
        for await (const line of streamLines(log)) expect(line).toBeUndefined();
      }),
    ).rejects.toThrow(refused);
    await expect(withPlanted(log, planted, 0, () => lineEndingAt(log, 10))).rejects.toThrow(refused);
  });
});

describe("a dry run's markers", () => {
  it("are written in place of a pipe at their names, never waiting for a reader", async () => {
    const dir = mkdtempSync(join(tmpdir(), "store-markers-"));
    const intents = new FileIntents(dir, () => new Date());
    const expiresAt = Date.now() + 60_000;
    const marker = join(dir, "expiry", String(Math.floor(expiresAt / 60_000)), `prepared.${"b".repeat(32)}`);
    mkdirSync(dirname(marker), { recursive: true });
    await withPlanted(marker, "pipe", 0, () =>
      intents.prepare({ fingerprint: "f", nonce: "b".repeat(32), operator: "alice_ops", expires_at: expiresAt, sealed: "{}" }),
    );
    expect(intents.lookUp("b".repeat(32)).outcome).toBe("open");
  });
});
