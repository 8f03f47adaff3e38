import { rmSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isRefusedFile, readOwnText, type RefusedFile } from "../files/own-file.js";
import { createWhole, replaceWhole } from "../files/whole-file.js";
import { SerialByKey } from "./serial-by-key.js";
import { liveness, LockOwner, newOwner } from "./lock-owner.js";

/** How long a call waits for a lock held by a live process before it gives up, reporting the holder. */
export const DEFAULT_LOCK_WAIT_MS = 10_000;
const MAX_PAUSE_MS = 50;

/** Holders in this process take turns before the file, so they never poll for each other. */
const IN_PROCESS = new SerialByKey();

/** A holder is under 200 bytes (pid, host, time, token); a longer file is not one a holder wrote. */
export const HOLDING_MAX_BYTES = 16 * 1024;

/** `unreadable`: not an owner (an older version's lock); a refused file: not a lock file (a link, a pipe, a device), never read. */
type Holding = LockOwner | "absent" | "unreadable" | RefusedFile;

function readHolding(path: string): Holding {
  const text = readOwnText(path, { what: "lock", maxBytes: HOLDING_MAX_BYTES });
  if (text === null) return "absent";
  if (isRefusedFile(text)) return text;
  try {
    const owner = LockOwner.safeParse(JSON.parse(text));
    return owner.success ? owner.data : "unreadable";
  } catch {
    return "unreadable";
  }
}

/** The holding's owner; null when it names none. */
function ownerOf(holding: Holding): LockOwner | null {
  return typeof holding === "string" || isRefusedFile(holding) ? null : holding;
}

/** Creates `path` holding `owner` unless it exists: a hard link of a complete file, so no one ever reads a half-written holder. */
function create(path: string, owner: LockOwner): boolean {
  return createWhole(path, JSON.stringify(owner));
}

function release(path: string, owner: LockOwner): void {
  const holding = readHolding(path);
  if (ownerOf(holding)?.token === owner.token) rmSync(path, { force: true });
}

/**
 * Replaces the holding of a dead holder with `owner`'s, in one rename. Only the waiter that creates
 * the marker named after the dead holding may do it, and it checks the holding is still that one:
 * two waiters can never both take over, nor one remove the holding another just took.
 */
function takeOver(path: string, dead: LockOwner, owner: LockOwner, depth = 0): boolean {
  const marker = `${path}.takeover-${dead.token}`;
  if (!create(marker, owner)) {
    const other = ownerOf(readHolding(marker));
    // A waiter that died while taking over left its marker behind: that marker is taken over in turn.
    if (depth >= 3 || other === null || liveness(other) !== "dead" || !takeOver(marker, other, owner, depth + 1)) return false;
  }
  try {
    if (ownerOf(readHolding(path))?.token !== dead.token) return false;
    replaceWhole(path, JSON.stringify(owner));
    return true;
  } finally {
    release(marker, owner);
  }
}

function busyMessage(lockPath: string, holding: Exclude<Holding, "absent">, waitedMs: number): string {
  const waited = `${(waitedMs / 1000).toFixed(1)} s`;
  if (isRefusedFile(holding)) return `${holding.reason}, nor taken; nothing was done. Remove it (no process of this program leaves one)`;
  if (holding === "unreadable") {
    return (
      `${lockPath}: held by a process that left no readable owner in it (an older version); waited ` +
      `${waited}, nothing was done. If no other process is writing, remove the file`
    );
  }
  const state = liveness(holding);
  const where = holding.host === hostname() ? "" : ` on host ${holding.host}`;
  const what = state === "stopped" ? "alive but stopped" : state === "running" ? "alive" : "not known to have ended";
  const next = state === "stopped" ? `resume it (kill -CONT ${holding.pid}) or end it` : "let it finish or end it";
  return (
    `${lockPath}: held by process ${holding.pid}${where} since ${holding.since} (${what}); waited ` +
    `${waited}, nothing was done. A lock is never taken from a live holder: ${next}`
  );
}

/** A lock held by a live process (or one that cannot be checked) for longer than the caller waits. */
export class LockBusyError extends Error {
  override readonly name = "LockBusyError";

  constructor(lockPath: string, holding: Exclude<Holding, "absent">, waitedMs: number) {
    super(busyMessage(lockPath, holding, waitedMs));
  }
}

async function acquire(path: string, waitMs: number): Promise<LockOwner> {
  const owner = newOwner();
  const started = Date.now();
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    if (create(path, owner)) return owner;
    const holding = readHolding(path);
    if (holding === "absent") continue;
    // Not a lock file (a link, a pipe, a device): no holder ever removes it, so it is not waited for.
    if (isRefusedFile(holding)) throw new LockBusyError(path, holding, Date.now() - started);
    if (holding !== "unreadable" && liveness(holding) === "dead" && takeOver(path, holding, owner)) return owner;
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new LockBusyError(path, holding, waited);
    await sleep(pause);
  }
}

/**
 * Runs `work` holding an exclusive lock file, so that processes sharing a file take turns. The
 * file names its holder (pid, host, start time, a token); a waiter takes it over only when that
 * holder is dead, never for its age: a live holder, even stopped, is waited for, and after
 * `waitMs` the call fails naming it. The wait never blocks the event loop.
 */
export function withFileLock<T>(lockPath: string, work: () => T | Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
  const path = resolve(lockPath);
  return IN_PROCESS.run(path, async () => {
    const owner = await acquire(path, options.waitMs ?? DEFAULT_LOCK_WAIT_MS);
    try {
      return await work();
    } finally {
      release(path, owner);
    }
  });
}
