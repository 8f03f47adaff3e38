import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { z } from "zod";

/** Who holds a lock file: written into it by the holder, read by whoever waits. */
export const LockOwner = z.object({
  pid: z.int().positive(),
  host: z.string(),
  /** The pid namespace (Linux), so a process in another container on the same host is not checked by a pid that is not its own. */
  namespace: z.string().nullable(),
  /** The process's start time (clock ticks after boot, /proc/<pid>/stat), so a recycled pid is not taken for the holder; null where unknown. */
  started: z.string().nullable(),
  /** Unique to one holding: only its holder removes the file, and a takeover names the holding it replaces. */
  token: z.string().regex(/^[0-9a-f]{32}$/),
  since: z.string(),
});
export type LockOwner = z.infer<typeof LockOwner>;

/** State and start time of a process from /proc (Linux), or null where it cannot be read. */
function processStat(pid: number): { state: string; started: string } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const started = fields[19];
  return state === undefined || started === undefined ? null : { state, started };
}

function pidNamespace(): string | null {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return null;
  }
}

let self: { started: string | null; namespace: string | null } | undefined;

function ownIdentity(): { started: string | null; namespace: string | null } {
  self ??= { started: processStat(process.pid)?.started ?? null, namespace: pidNamespace() };
  return self;
}

/** A new holding by this process. */
export function newOwner(): LockOwner {
  return { pid: process.pid, host: hostname(), ...ownIdentity(), token: randomBytes(16).toString("hex"), since: new Date().toISOString() };
}

export type Liveness = "dead" | "running" | "stopped" | "unknown";

/**
 * Whether a holder still lives. Dead only when known: no such process, a zombie, or another
 * process with its pid (another start time). A holder on another host, or one whose process
 * cannot be inspected, counts as alive; so does a stopped one (SIGSTOP), which will go on.
 */
export function liveness(owner: LockOwner): Liveness {
  if (owner.host !== hostname() || owner.namespace !== ownIdentity().namespace) return "unknown";
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return "dead";
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return "unknown";
  }
  const stat = processStat(owner.pid);
  if (stat === null) return "unknown";
  if (stat.state === "Z" || stat.state === "X") return "dead";
  if (owner.started !== null && stat.started !== owner.started) return "dead";
  return stat.state === "T" || stat.state === "t" ? "stopped" : "running";
}
