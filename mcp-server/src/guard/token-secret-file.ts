import { readFileSync } from "node:fs";
import { ConfigError } from "../config/server-config.js";

const MIN_SECRET_BYTES = 32;

/**
 * The confirmation tokens' HMAC key, shared by replicas through a file: its bytes as they are
 * (binary or text), at least 32. Errors name the setting and the file, never the content.
 */
export function readTokenSecretFile(path: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`--token-secret-file (CUSTODY_TOKEN_SECRET_FILE): cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new ConfigError(`--token-secret-file (CUSTODY_TOKEN_SECRET_FILE): ${path} holds ${bytes.length} bytes; it needs at least ${MIN_SECRET_BYTES} random bytes (head -c 32 /dev/urandom > ${path})`);
  }
  return bytes;
}
