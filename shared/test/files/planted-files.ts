import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, rmSync, statSync, symlinkSync } from "node:fs";
import { expect } from "vitest";

/** What is put in place of a store's own file: none of them is ever read. */
export type Planted = "pipe" | "link to /dev/zero" | "too large";
export const PLANTED: Planted[] = ["pipe", "link to /dev/zero", "too large"];

/** The rule a refusal of what was planted names. */
export function ruleOf(planted: Planted): string {
  return planted === "too large" ? "holds more than" : "is not a regular file";
}

/**
 * Puts `planted` at `path`; returns what undoes it. "too large": the file there (a valid one, written first) padded with spaces
 * past `maxBytes` (JSON allows them: it still says what it said, so only its size refuses it). A pipe gets a writer (and a reader)
 * after 5 s, so that a read (or a write) that waits for one (blocking the whole process, and the test's timeout with it) ends rather than hangs.
 */
export function plant(path: string, planted: Planted, maxBytes = 0): () => void {
  if (planted === "too large") {
    expect(existsSync(path)).toBe(true);
    appendFileSync(path, " ".repeat(maxBytes + 1 - statSync(path).size));
    return () => {};
  }
  rmSync(path, { force: true });
  if (planted === "link to /dev/zero") {
    symlinkSync("/dev/zero", path);
    return () => rmSync(path, { force: true });
  }
  expect(spawnSync("mkfifo", [path]).status).toBe(0);
  // Opened both ways (Linux): it ends a wait to read and a wait to write alike, and its end is the pipe's end.
  const writer = spawn("sh", ["-c", 'sleep 5; exec 3<>"$0"', path], { stdio: "ignore" });
  return () => {
    writer.kill();
    rmSync(path, { force: true });
  };
}

/** Runs `read` with `planted` at `path`, and checks it returned well before a pipe's writer would have ended a wait. */
export async function withPlanted<T>(path: string, planted: Planted, maxBytes: number, read: () => T | Promise<T>): Promise<T> {
  const undo = plant(path, planted, maxBytes);
  const started = Date.now();
  try {
    return await read();
  } finally {
    undo();
    expect(Date.now() - started).toBeLessThan(4000);
  }
}
