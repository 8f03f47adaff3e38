import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fsyncDirectory } from "../store/fsync-directory.js";
import type { ModuleStorageConfig } from "./module-storage-config.js";

export interface OperatorSecret {
  name: string;
  device_id: string;
  /** Hex of the operator's ed25519 secret key. */
  secret_key: string;
}

export interface OperatorCertificate {
  name: string;
  device_id: string;
  pub_key: string;
  key_handle: string;
  issued_on: string;
}

function writeDurably(dir: string, file: string, text: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, file);
  const temp = `${path}.tmp`;
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  fsyncDirectory(dir);
}

function fileName(name: string): string {
  return `${encodeURIComponent(name)}.json`;
}

/**
 * Where the module keeps operator secrets and certificates: files (FILESYSTEM) or memory.
 * Secrets are written before the operator is acknowledged; they are never read back into a
 * response or a log.
 */
export class ModuleStorage {
  private readonly memorySecrets = new Map<string, OperatorSecret>();
  private readonly memoryCerts = new Map<string, OperatorCertificate>();

  constructor(private readonly config: ModuleStorageConfig) {}

  saveOperator(secret: OperatorSecret, certificate: OperatorCertificate): void {
    if (this.config.userPath === null) this.memorySecrets.set(secret.name, secret);
    else writeDurably(this.config.userPath, fileName(secret.name), JSON.stringify(secret));
    if (this.config.certPath === null) this.memoryCerts.set(certificate.name, certificate);
    else writeDurably(this.config.certPath, fileName(certificate.name), JSON.stringify(certificate));
  }

  toJSON(): string {
    return "[ModuleStorage]";
  }
}
