import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";

export interface WholeFileOptions {
  /** Synced before it takes its name: what it says must survive a power loss. */
  sync?: boolean;
  /** The file's mode (before the umask); the default is 0o666. */
  mode?: number;
}

/** Writes `data` whole under a name of its own beside `path`, then gives it `path` by `place`; the name of its own never stays behind. */
function writeThenPlace(path: string, data: string | Uint8Array, options: WholeFileOptions, place: (temporary: string) => void): void {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const fd = openSync(temporary, "wx", options.mode ?? 0o666);
    try {
      writeFileSync(fd, data);
      if (options.sync === true) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    place(temporary);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Writes the file whole, then renames it over `path`: a reader finds the old file or the new one, never a part of either. */
export function replaceWhole(path: string, data: string | Uint8Array, options: WholeFileOptions = {}): void {
  writeThenPlace(path, data, options, (temporary) => renameSync(temporary, path));
}

/**
 * Writes the file whole, then links it at `path` unless something is there already: false then,
 * and that file stays. Of processes creating it at once, one wins, and no one reads a half-written file.
 */
export function createWhole(path: string, data: string | Uint8Array, options: WholeFileOptions = {}): boolean {
  let created = true;
  writeThenPlace(path, data, options, (temporary) => {
    try {
      linkSync(temporary, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      created = false;
    }
  });
  return created;
}
