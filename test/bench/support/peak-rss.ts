import { readFileSync } from "node:fs";

/**
 * The process's peak resident set size so far, in KiB (VmHWM of /proc/<pid>/status), or null
 * where /proc is not available or the process is gone. Read it just before the process ends.
 */
export function peakRssKb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
