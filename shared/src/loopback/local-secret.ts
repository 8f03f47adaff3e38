import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { isRefusedFile, readOwnFile } from "../files/own-file.js";
import { errorMessage } from "../untrusted/error-message.js";

/** A fresh secret for a loopback server and the process that started it: 256 random bits, base64url. */
export function newLocalSecret(): string {
  return randomBytes(32).toString("base64url");
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Whether a secret a request carried is the expected one; compared in constant time (over digests, so lengths leak nothing either). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

/** Printable ASCII without spaces (it travels in an HTTP header), long enough not to be guessed. */
const SECRET_FORM = /^[\x21-\x7e]{32,1024}$/;

/** Why a text cannot be a local secret, or null. Never quotes the text. */
export function localSecretProblem(text: string): string | null {
  return SECRET_FORM.test(text) ? null : "must be 32 to 1024 printable ASCII characters without spaces";
}

/**
 * A key file is far smaller than this (a secret is at most 1024 characters; a key 32 bytes): a larger file is not read. A link is
 * followed (a secret mounted by an orchestrator is one), to a regular file only: a pipe or a device would block or never end.
 */
export const KEY_FILE_MAX_BYTES = 64 * 1024;

/** The key file's bytes; an error naming the setting, the file and the rule (never the content) when it cannot be read or is refused. */
function keyFileBytes(path: string, setting: string): Buffer {
  let bytes: ReturnType<typeof readOwnFile>;
  try {
    bytes = readOwnFile(path, { what: `${setting}:`, maxBytes: KEY_FILE_MAX_BYTES, followLinks: true, secret: true });
    // Absent: thrown as a read throws it (a caller may create the file then).
    if (bytes === null) throw Object.assign(new Error(`${path}: no such file`), { code: "ENOENT" });
  } catch (error) {
    throw new Error(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`, { cause: error });
  }
  if (isRefusedFile(bytes)) throw new Error(bytes.reason);
  return bytes;
}

/** The text of a secret kept in a file (surrounding whitespace ignored), of any form; the error names the setting and the file, never the content. */
export function readSecretTextFile(path: string, setting: string): string {
  return keyFileBytes(path, setting).toString("utf8").trim();
}

/** The secret held in a file (surrounding whitespace ignored); the error names the setting and the file, never the content. */
export function readLocalSecretFile(path: string, setting: string): string {
  const text = readSecretTextFile(path, setting);
  const problem = localSecretProblem(text);
  if (problem !== null) throw new Error(`${setting}: the key in ${path} ${problem}`);
  return text;
}

/**
 * A key kept in a file as raw bytes (binary or text, taken as they are: replicas reading one file
 * must get one key), at least `minBytes`. Errors name the setting and the file, never the content.
 */
export function readKeyBytesFile(path: string, setting: string, minBytes = 32): Buffer {
  const bytes = keyFileBytes(path, setting);
  if (bytes.length < minBytes)
    throw new Error(
      `${setting}: ${path} holds ${bytes.length} bytes; it needs at least ${minBytes} random bytes ((umask 077; head -c 32 /dev/urandom > ${path}))`,
    );
  return bytes;
}
