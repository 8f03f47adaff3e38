import { join } from "node:path";

export interface ModuleStorageConfig {
  /** Where operator secrets are kept; null keeps them in memory. */
  userPath: string | null;
  /** Where operator certificates are kept; null keeps them in memory. */
  certPath: string | null;
}

const SUPPORTED_BACKEND = "FILESYSTEM";

function pathFor(env: Readonly<Record<string, string | undefined>>, backendVar: string, pathVar: string, fallback: string | null): string | null {
  const backend = env[backendVar];
  const path = env[pathVar];
  if (backend !== undefined && backend !== "" && backend !== SUPPORTED_BACKEND) {
    throw new Error(`${backendVar}: only ${SUPPORTED_BACKEND} is supported, got ${JSON.stringify(backend)}`);
  }
  if (path !== undefined && path !== "") {
    if (backend !== SUPPORTED_BACKEND) throw new Error(`${pathVar} is set, so ${backendVar} must be ${SUPPORTED_BACKEND}`);
    return path;
  }
  if (backend === SUPPORTED_BACKEND && fallback === null) {
    throw new Error(`${backendVar} is ${SUPPORTED_BACKEND}, so ${pathVar} must name a directory`);
  }
  return fallback;
}

/**
 * The module's storage settings from its environment (CERT_STORAGE_BACKEND, CERT_STORAGE_PATH,
 * USER_STORAGE_BACKEND, USER_STORAGE_PATH). Unset, they default to folders of the data
 * directory, or to memory when the emulator runs in memory.
 */
export function moduleStorageConfig(env: Readonly<Record<string, string | undefined>>, dataDir: string | null): ModuleStorageConfig {
  return {
    userPath: pathFor(env, "USER_STORAGE_BACKEND", "USER_STORAGE_PATH", dataDir === null ? null : join(dataDir, "module", "users")),
    certPath: pathFor(env, "CERT_STORAGE_BACKEND", "CERT_STORAGE_PATH", dataDir === null ? null : join(dataDir, "module", "certs")),
  };
}
