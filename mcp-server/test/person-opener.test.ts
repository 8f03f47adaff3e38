import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { commandOpener } from "../src/confirm-page/person-opener.js";
import { tempDir } from "./harness/temp-dirs.js";

// --confirm-opener: the command that shows the person their page's link, and nothing else does.

const LINK = "http://127.0.0.1:1/confirm/p1.x.y?key=person-only";

it("runs the command with the link as its last argument, words split on spaces, no shell", async () => {
  const file = join(tempDir("custody-opener-"), "opened.txt");
  process.env.CUSTODY_TEST_OPENED = file;
  try {
    const open = commandOpener(`${process.execPath}  ${join(import.meta.dirname, "harness", "capture-opener.mjs")}`, () => {});
    open?.(LINK);
    await vi.waitFor(() => expect(existsSync(file) ? readFileSync(file, "utf8") : "").toBe(`${LINK}\n`));
  } finally {
    delete process.env.CUSTODY_TEST_OPENED;
  }
});

it("none opens nothing; a command that cannot run is logged without the link", async () => {
  expect(commandOpener("none", () => {})).toBeNull();
  const lines: string[] = [];
  commandOpener("/nonexistent/custody-opener --flag", (line) => lines.push(line))?.(LINK);
  await vi.waitFor(() => expect(lines).toHaveLength(1));
  expect(lines[0]).toContain("/nonexistent/custody-opener");
  expect(lines[0]).not.toContain("person-only");
});
