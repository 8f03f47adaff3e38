import { DEFAULT_POLICY, loadPolicyFile, PolicyFileError, type Policy } from "@custody/shared";
import { settingPath } from "./setting-path.js";

/** The policy file's path as configured: absolute, or starting with "~/". */
export function policyPath(setting: string): string | undefined {
  const resolved = settingPath("policyFile", setting);
  if (resolved !== undefined && "problem" in resolved) throw new PolicyFileError(setting, resolved.problem);
  return resolved?.path;
}

/**
 * The local policy, read afresh for every write so an edit applies at once. A file that is
 * configured but unreadable or invalid stops the write: it never falls back to no policy.
 */
export function loadPolicy(setting: string): Policy {
  const path = policyPath(setting);
  return path === undefined ? DEFAULT_POLICY : loadPolicyFile(path);
}
