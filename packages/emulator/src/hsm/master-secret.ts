import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fsyncDirectory } from "../store/fsync-directory.js";

const SECRET_BYTES = 32;

/**
 * The HSM's master secret, from which every account key is derived. Created once in
 * `<dir>/master.key` (mode 0600, fsynced before use); random and held in memory only when
 * there is no directory.
 */
export function loadMasterSecret(dir: string | null): Uint8Array {
  if (dir === null) return new Uint8Array(randomBytes(SECRET_BYTES));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, "master.key");
  if (existsSync(path)) {
    const bytes = new Uint8Array(readFileSync(path));
    if (bytes.length !== SECRET_BYTES) throw new Error(`${path}: the HSM master secret must be ${SECRET_BYTES} bytes`);
    return bytes;
  }
  const secret = new Uint8Array(randomBytes(SECRET_BYTES));
  const temp = `${path}.tmp`;
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, secret);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  fsyncDirectory(dir);
  return secret;
}
