import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { createWhole } from "../files/whole-file.js";
import { readKeyBytesFile } from "../loopback/local-secret.js";

const MIN_KEY_BYTES = 32;
/** A key's id as AuditSealKey makes it (16 hex digits): the only text of a key id a file holds that is ever said in a message. */
export const SEAL_KEY_ID = /^[0-9a-f]{16}$/;

/** A key id read from a file, as a message may say it: itself when it is one, never other text the file holds. */
export function keyIdSaid(value: unknown): string {
  return typeof value === "string" && SEAL_KEY_ID.test(value) ? value : "not a key id this program makes";
}

export const SEAL_KEY_SETTING = "--audit-seal-key-file (CUSTODY_AUDIT_SEAL_KEY_FILE)";

/**
 * The key that seals an audit store's checkpoint (HMAC-SHA256): whoever lacks it cannot make a
 * shortened log or an edited ledger pass for the one that was sealed. Its id (a digest, never the
 * key) is written with each seal, so a seal made with another key is named as such.
 */
export class AuditSealKey {
  readonly id: string;
  readonly #key: Buffer;

  /**
   * @param path the file the key was read from, or null: a key kept in a file also keeps, in a
   * folder beside it, which logs it has sealed (sealed-log-register.ts).
   */
  constructor(
    key: Buffer,
    readonly path: string | null = null,
  ) {
    if (key.length < MIN_KEY_BYTES) throw new Error(`an audit seal key needs at least ${MIN_KEY_BYTES} bytes, got ${key.length}`);
    this.#key = Buffer.from(key);
    this.id = createHash("sha256").update("custody audit seal key id\0").update(key).digest("hex").slice(0, 16);
  }

  /** The MAC of a text under this key, for one purpose (`domain`), as hex. */
  mac(domain: string, text: string): string {
    return createHmac("sha256", this.#key).update(`${domain}\0`).update(text).digest("hex");
  }

  /** Whether `mac` is this key's MAC of the text, compared in constant time. */
  verifies(domain: string, text: string, mac: string): boolean {
    if (!/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(this.mac(domain, text), "hex"), Buffer.from(mac, "hex"));
  }
}

/** Where the seal key is when no setting names it: one per user (created on first use), shared by the MCP server and the VS Code extension. */
export function defaultSealKeyPath(): string {
  return join(homedir(), ".custody-mcp", "audit-seal.key");
}

/** The seal key in a file (its bytes as they are, at least 32); errors name the setting and the file, never the content. */
export function readSealKeyFile(path: string): AuditSealKey {
  return new AuditSealKey(readKeyBytesFile(path, SEAL_KEY_SETTING, MIN_KEY_BYTES), path);
}

/**
 * The seal key in the file, created with 32 random bytes (readable by its owner only) when there
 * is none: a complete file linked into place, so two processes starting together use one key.
 */
export function sealKeyFromFile(path: string): AuditSealKey {
  try {
    return readSealKeyFile(path);
  } catch (error) {
    if (((error as Error).cause as NodeJS.ErrnoException | undefined)?.code !== "ENOENT") throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Another process that created it first wins: its key is the one read.
  createWhole(path, randomBytes(MIN_KEY_BYTES), { mode: 0o600, sync: true });
  return readSealKeyFile(path);
}
