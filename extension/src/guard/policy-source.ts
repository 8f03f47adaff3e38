import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { DEFAULT_POLICY, loadPolicyFile, PolicyFileError, type Policy } from "@custody/shared";

/** The policy file's path as configured: absolute, or starting with "~/". */
export function policyPath(setting: string): string | undefined {
  if (setting === "") return undefined;
  const path = setting.startsWith("~/") ? join(homedir(), setting.slice(2)) : setting;
  if (!isAbsolute(path)) throw new PolicyFileError(setting, "custody.policyFile must be an absolute path (or start with ~/)");
  return path;
}

/**
 * The local policy, read afresh for every write so an edit applies at once. A file that is
 * configured but unreadable or invalid stops the write: it never falls back to no policy.
 */
export function loadPolicy(setting: string): Policy {
  const path = policyPath(setting);
  return path === undefined ? DEFAULT_POLICY : loadPolicyFile(path);
}
