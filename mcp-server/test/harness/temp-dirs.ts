import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

const madeOutsideTests: string[] = [];

function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

afterAll(() => {
  for (const dir of madeOutsideTests.splice(0)) remove(dir);
});

/**
 * A fresh directory under the system's temporary directory, removed when the test that made it
 * finishes; one made outside a test (in beforeAll) is removed after the file's last test.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    onTestFinished(() => remove(dir));
  } catch {
    madeOutsideTests.push(dir);
  }
  return dir;
}

/** The environment of a spawned server: a HOME of its own, and its temporary files (an embedded audit log) under it. */
export function childHome(): { HOME: string; TMPDIR: string } {
  const home = tempDir("custody-mcp-home-");
  return { HOME: home, TMPDIR: home };
}
