import { isRefusedFile, readOwnFile } from "@custody/shared/own-file";

export interface BoundedReadOptions {
  /** Only a file of this user's own that no one else may write, opened without following a symbolic link at its name. */
  ownFileOnly?: boolean;
}

/**
 * A regular file's bytes if it holds at most `maxBytes`; null if it cannot be read, is not a file (a pipe or a device, which is
 * never waited on nor read), or is larger.
 */
export function boundedRead(path: string, maxBytes: number, options: BoundedReadOptions = {}): Buffer | null {
  const own = options.ownFileOnly === true;
  try {
    const bytes = readOwnFile(path, { what: "file", maxBytes, followLinks: !own, privateToOwner: own });
    return bytes === null || isRefusedFile(bytes) ? null : bytes;
  } catch {
    return null;
  }
}
