import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Only the write road plans, reserves and sends: the surfaces walk the whole road (WriteRoad) and
// never call its steps, so both keep the same order and the same audit meanings.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SURFACES = ["mcp-server/src", "extension/src"];
const STEPS =
  /\b(planWrite|sendOnce|submitWrite|reserveDailyAmount|lookUpLostAnswer|checkDuplicate)\b|@custody\/shared\/road-steps|\bstore(\(\))?\.(reserve|redeemIntent|prepareIntent)\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the write road's boundary", () => {
  it("no surface file calls a step of the road (planning, reservation, submission, look-up) itself", () => {
    const files = SURFACES.flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) => STEPS.test(readFileSync(file, "utf8"))).map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
