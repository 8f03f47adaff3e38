import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localSecretProblem, newLocalSecret, readKeyBytesFile, readLocalSecretFile, sameSecret } from "../../src/index.js";

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
    writeFileSync(join(dir, "good"), `${good}\n`, { mode: 0o600 });
    expect(readLocalSecretFile(join(dir, "good"), "--key-file")).toBe(good);
    writeFileSync(join(dir, "short"), "hunter2-short", { mode: 0o600 });
    expect(() => readLocalSecretFile(join(dir, "short"), "--key-file")).toThrow(/^--key-file: the key in .*short must be 32 to 1024 printable ASCII/);
    expect(() => readLocalSecretFile(join(dir, "short"), "--key-file")).not.toThrow(/hunter2/);
    expect(() => readLocalSecretFile(join(dir, "absent"), "CUSTODY_EMULATOR_KEY_FILE")).toThrow(/^CUSTODY_EMULATOR_KEY_FILE: cannot read .*absent \(ENOENT\)/);
  });

  it.skipIf(process.platform === "win32")("refuse a key file other users may read or write, saying the mode and the fix, never the content", () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-secret-"));
    const path = join(dir, "shared");
    const secret = newLocalSecret();
    writeFileSync(path, secret, { mode: 0o600 });
    for (const mode of [0o644, 0o604, 0o660, 0o620]) {
      chmodSync(path, mode);
      const refused = () => readLocalSecretFile(path, "--key-file");
      // Root's file follows root's rule: its group may read it, nobody else.
      if (process.getuid?.() === 0)
        expect(refused).toThrow(
          new RegExp(`^--key-file: .*shared is not kept secret: it is root's .*\\(mode 0${mode.toString(8)}\\); give it mode 0640 or less`),
        );
      else
        expect(refused).toThrow(
          new RegExp(
            `^--key-file: .*shared is not kept secret: other users may read or write it \\(mode 0${mode.toString(8)}\\); make it its owner's only \\(chmod 600\\)`,
          ),
        );
      expect(refused).not.toThrow(secret);
    }
    chmodSync(path, process.getuid?.() === 0 ? 0o640 : 0o600);
    expect(readLocalSecretFile(path, "--key-file")).toBe(secret);
    expect(readKeyBytesFile(path, "--token-secret-file").toString()).toBe(secret);
    chmodSync(path, 0o644);
    expect(() => readKeyBytesFile(path, "--token-secret-file")).toThrow(/^--token-secret-file: .*shared is not kept secret/);
  });
});
