import { existsSync } from "node:fs";
import { defaultSealKeyPath, readSealKeyFile, sealKeyFromFile, type AuditSealKey, errorMessage } from "@custody/shared";
import { ConfigError } from "../config/server-config.js";

/** The audit seal key the setting names, else the default one, created when missing (the server's stores seal with it). */
export function sealKeySetting(file: string | null): AuditSealKey {
  try {
    return file === null ? sealKeyFromFile(defaultSealKeyPath()) : readSealKeyFile(file);
  } catch (error) {
    throw new ConfigError(errorMessage(error), { cause: error });
  }
}

/** For verify-audit, which creates nothing: the key the setting names, else the default one if it exists, else null (the seal is compared unchecked). */
export function existingSealKey(file: string | null): AuditSealKey | null {
  if (file === null && !existsSync(defaultSealKeyPath())) return null;
  return sealKeySetting(file);
}
