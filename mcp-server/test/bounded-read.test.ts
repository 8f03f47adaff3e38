import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLANTED, withPlanted } from "../../shared/test/files/planted-files.js";
import { boundedRead } from "../src/opening/bounded-read.js";

describe.each(PLANTED)("the opening's bounded read with %s in place of a file", (planted) => {
  it.each([{ ownFileOnly: false }, { ownFileOnly: true }])("returns null without waiting or reading without end (%o)", async (options) => {
    const file = join(mkdtempSync(join(tmpdir(), "bounded-read-")), "answers.json");
    writeFileSync(file, "{}", { mode: 0o600 });
    expect(await withPlanted(file, planted, 100, () => boundedRead(file, 100, options))).toBeNull();
    writeFileSync(file, "{}", { mode: 0o600 });
    expect(boundedRead(file, 100, options)?.toString()).toBe("{}");
  });
});
