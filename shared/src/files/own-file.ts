import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from "node:fs";

/** Why a file was not read: what the program's writes never leave at its name, or more than its reader takes. */
export type OwnFileRule = "not a file" | "too large" | "not private";

/** A file not read, with the reason to say: it names the file and the rule, never the content. */
export interface RefusedFile {
  refused: OwnFileRule;
  reason: string;
}

export interface OwnFileOptions {
  /** What the file is, for the reason ("audit seal", "--audit-seal-key-file (…)"). */
  what: string;
  /** Follow a symbolic link at the name to a regular file (a secret mounted as a link); by default a link is not opened. */
  followLinks?: boolean;
}

export interface ReadOwnFileOptions extends OwnFileOptions {
  /** More bytes than this are not read. */
  maxBytes: number;
  /** Only a file of this user's that no one else may write (no owner to check on Windows). */
  privateToOwner?: boolean;
  /** A key or secret: only a file no other user may read or write (secretFileProblem). */
  secret?: boolean;
}

const LINK_REFUSED = new Set(["ELOOP", "EMLINK"]);

export function isRefusedFile(value: unknown): value is RefusedFile {
  return typeof value === "object" && value !== null && "refused" in value && !Buffer.isBuffer(value);
}

function notAFile(path: string, what: string): RefusedFile {
  return { refused: "not a file", reason: `${what} ${path} is not a regular file (a link, a pipe, a device or a folder in its place); it is not read` };
}

/**
 * The file opened for reading, or null when absent: a link at the name is not opened (O_NOFOLLOW; Windows, which has no such
 * flag, looks first), and a pipe opens without waiting for a writer (O_NONBLOCK: a blocking open would stop the whole process).
 * Only a regular file is kept open: a pipe or a device (read, /dev/zero never ends) is refused.
 */
export function openOwnFile(path: string, options: OwnFileOptions): { fd: number; status: Stats } | RefusedFile | null {
  const follow = options.followLinks === true;
  let fd: number;
  try {
    if (!follow && constants.O_NOFOLLOW === undefined && lstatSync(path).isSymbolicLink()) return notAFile(path, options.what);
    fd = openSync(path, constants.O_RDONLY | (follow ? 0 : (constants.O_NOFOLLOW ?? 0)) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "ENOENT") return null;
    if (LINK_REFUSED.has(code)) return notAFile(path, options.what);
    throw error;
  }
  const status = fstatSync(fd);
  if (status.isFile()) return { fd, status };
  closeSync(fd);
  return notAFile(path, options.what);
}

/** Whether the file is this user's and writable by no one else (no owner to check on Windows). */
function ownedPrivately(status: Stats): boolean {
  const owner = process.getuid?.();
  return owner === undefined || (status.uid === owner && (status.mode & 0o022) === 0);
}

/**
 * Why a key file is not kept secret, or null: PostgreSQL's rule for its key files. This user's file
 * may give no permission to its group or to others (0600 or less); root's (a secret an orchestrator
 * mounts) may let its group read it (0640 or less); another user's is refused. Whoever reads a
 * token secret can confirm a write; whoever writes a seal key can seal a shortened log. No owner
 * or mode to check on Windows.
 */
export function secretFileProblem(status: Pick<Stats, "uid" | "mode">): string | null {
  const user = process.getuid?.();
  if (user === undefined) return null;
  const mode = `mode 0${(status.mode & 0o777).toString(8)}`;
  if (status.uid === 0)
    return (status.mode & 0o037) === 0
      ? null
      : `it is root's and lets others than its owner and group read it, or its group write it (${mode}); give it mode 0640 or less`;
  if (status.uid !== user) return `it is another user's (uid ${status.uid}); it must be this user's or root's`;
  if ((status.mode & 0o077) !== 0) return `other users may read or write it (${mode}); make it its owner's only (chmod 600)`;
  return null;
}

/**
 * A file the program keeps, read whole if it is its kind of file: null when absent, refused when it is not a regular file (see
 * openOwnFile) or holds more than `maxBytes` (checked before reading, and at most maxBytes + 1 bytes are read: one that grows
 * meanwhile is refused too). Any other failure to read it (EACCES) is thrown, as a read of it throws.
 */
export function readOwnFile(path: string, options: ReadOwnFileOptions): Buffer | RefusedFile | null {
  const opened = openOwnFile(path, options);
  if (opened === null || isRefusedFile(opened)) return opened;
  const { fd, status } = opened;
  try {
    const tooLarge: RefusedFile = { refused: "too large", reason: `${options.what} ${path} holds more than ${options.maxBytes} bytes; it is not read` };
    if (status.size > options.maxBytes) return tooLarge;
    if (options.privateToOwner === true && !ownedPrivately(status))
      return { refused: "not private", reason: `${options.what} ${path} is another user's or writable by others; it is not read` };
    const secretProblem = options.secret === true ? secretFileProblem(status) : null;
    if (secretProblem !== null) return { refused: "not private", reason: `${options.what} ${path} is not kept secret: ${secretProblem}; it is not read` };
    const bytes = Buffer.allocUnsafe(Math.min(status.size, options.maxBytes) + 1);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return read > options.maxBytes ? tooLarge : bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** readOwnFile's text, as UTF-8. */
export function readOwnText(path: string, options: ReadOwnFileOptions): string | RefusedFile | null {
  const bytes = readOwnFile(path, options);
  return Buffer.isBuffer(bytes) ? bytes.toString("utf8") : bytes;
}
