import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
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

/** The secret held in a file (surrounding whitespace ignored); the error names the setting and the file, never the content. */
export function readLocalSecretFile(path: string, setting: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new Error(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`, { cause: error });
  }
  const problem = localSecretProblem(text);
  if (problem !== null) throw new Error(`${setting}: the key in ${path} ${problem}`);
  return text;
}

/**
 * A key kept in a file as raw bytes (binary or text, taken as they are: replicas reading one file
 * must get one key), at least `minBytes`. Errors name the setting and the file, never the content.
 */
export function readKeyBytesFile(path: string, setting: string, minBytes = 32): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`, { cause: error });
  }
  if (bytes.length < minBytes)
    throw new Error(`${setting}: ${path} holds ${bytes.length} bytes; it needs at least ${minBytes} random bytes (head -c 32 /dev/urandom > ${path})`);
  return bytes;
}
