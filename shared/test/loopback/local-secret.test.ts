import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localSecretProblem, newLocalSecret, readLocalSecretFile, sameSecret } from "../../src/index.js";

describe("local secrets", () => {
  it("are fresh 256-bit values of the accepted form", () => {
    const one = newLocalSecret();
    expect(one).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newLocalSecret()).not.toBe(one);
    expect(localSecretProblem(one)).toBeNull();
  });

  it("match only the same text", () => {
    const secret = newLocalSecret();
    expect(sameSecret(secret, secret)).toBe(true);
    expect(sameSecret(`${secret}x`, secret)).toBe(false);
    expect(sameSecret("", secret)).toBe(false);
    expect(sameSecret(undefined, secret)).toBe(false);
  });

  it("are read from a file, trimmed; a short or unreadable one is refused naming the setting, never quoting the content", () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-secret-"));
    const good = newLocalSecret();
    writeFileSync(join(dir, "good"), `${good}\n`);
    expect(readLocalSecretFile(join(dir, "good"), "--key-file")).toBe(good);
    writeFileSync(join(dir, "short"), "hunter2-short");
    expect(() => readLocalSecretFile(join(dir, "short"), "--key-file")).toThrow(/^--key-file: the key in .*short must be 32 to 1024 printable ASCII/);
    expect(() => readLocalSecretFile(join(dir, "short"), "--key-file")).not.toThrow(/hunter2/);
    expect(() => readLocalSecretFile(join(dir, "absent"), "CUSTODY_EMULATOR_KEY_FILE")).toThrow(/^CUSTODY_EMULATOR_KEY_FILE: cannot read .*absent \(ENOENT\)/);
  });
});
