import { closeSync, openSync, rmSync, statSync } from "node:fs";

/** A lock older than this is taken as left behind by a process that died while holding it. */
const STALE_LOCK_MS = 30_000;
const WAIT_LIMIT_MS = 10_000;
const RETRY_MS = 5;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `work` holding an exclusive lock file (created with O_EXCL), so that processes sharing a
 * file take turns. Synchronous, for the short critical sections of an append.
 */
export function withFileLock<T>(lockPath: string, work: () => T): T {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lockPath, "wx"));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let age: number;
    try {
      age = Date.now() - statSync(lockPath).mtimeMs;
    } catch {
      continue;
    }
    if (age > STALE_LOCK_MS) {
      rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${lockPath}: held by another process for over ${WAIT_LIMIT_MS / 1000} s; remove it if no other process is writing`);
    }
    pause(RETRY_MS);
  }
  try {
    return work();
  } finally {
    rmSync(lockPath, { force: true });
  }
}
