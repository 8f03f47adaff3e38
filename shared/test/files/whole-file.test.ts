import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWhole, replaceWhole } from "../../src/files/whole-file.js";

const folder = () => mkdtempSync(join(tmpdir(), "custody-whole-file-"));

describe("a file written whole", () => {
  it("replaces the old file in one rename, with the mode asked for, leaving nothing beside it", () => {
    const dir = folder();
    const path = join(dir, "ledger.json");
    writeFileSync(path, "old");
    replaceWhole(path, "new", { mode: 0o600, sync: true });
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["ledger.json"]);
  });

  it("is created only where nothing is: the first one stays, and the second writer is told", () => {
    const dir = folder();
    const path = join(dir, "seal.key");
    expect(createWhole(path, Buffer.from([1, 2, 3]), { mode: 0o600 })).toBe(true);
    expect(createWhole(path, Buffer.from([4, 5, 6]))).toBe(false);
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["seal.key"]);
  });

  it("leaves nothing beside it when it cannot take its name", () => {
    const dir = folder();
    // A folder that is not empty where the file would go: the rename fails.
    const path = join(dir, "occupied");
    mkdirSync(path);
    writeFileSync(join(path, "inside"), "x");
    expect(() => replaceWhole(path, "new")).toThrow();
    expect(readdirSync(dir)).toEqual(["occupied"]);
  });
});
