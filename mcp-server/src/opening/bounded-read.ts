import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export interface BoundedReadOptions {
  /** Only a file of this user's own that no one else may write, opened without following a symbolic link at its name. */
  ownFileOnly?: boolean;
}

/** Whether the file is this user's and writable by no one else (no owner to check on Windows). */
function ownedPrivately(status: { uid: number; mode: number }): boolean {
  const owner = process.getuid?.();
  return owner === undefined || (status.uid === owner && (status.mode & 0o022) === 0);
}

/** A regular file's bytes if it holds at most `maxBytes`; null if it cannot be read, is not a file, or is larger. */
export function boundedRead(path: string, maxBytes: number, options: BoundedReadOptions = {}): Buffer | null {
  let fd: number | null = null;
  try {
    // O_NOFOLLOW: a link at the name fails to open (ELOOP); undefined on Windows, where links need privileges to make.
    fd = openSync(path, options.ownFileOnly === true ? constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) : "r");
    const status = fstatSync(fd);
    if (!status.isFile() || status.size > maxBytes) return null;
    if (options.ownFileOnly === true && !ownedPrivately(status)) return null;
    const bytes = Buffer.alloc(status.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return read === bytes.length ? bytes : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
