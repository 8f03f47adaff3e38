import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the data directory for this process, so two emulators never write the same journal.
 * A lock left by a process that no longer runs (killed with -9) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, "LOCK");
  if (heldHere.has(path)) throw new Error(`data directory ${dir} is in use by process ${process.pid} (this process)`);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(path);
      return () => {
        heldHere.delete(path);
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(path, "utf8"), 10);
      if (Number.isSafeInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new Error(`data directory ${dir} is in use by process ${holder}`, { cause: error });
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}
