import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** A regular file's bytes if it holds at most `maxBytes`; null if it cannot be read, is not a file, or is larger. */
export function boundedRead(path: string, maxBytes: number): Buffer | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const status = fstatSync(fd);
    if (!status.isFile() || status.size > maxBytes) return null;
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
