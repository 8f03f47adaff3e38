import type { Policy, Toolset } from "./policy.js";

export interface ToolIdentity {
  name: string;
  toolset: Toolset;
  /** True for tools that change nothing in the workspace. */
  readOnly: boolean;
}

/**
 * Whether the policy lets this tool run at all. Surfaces hide refused tools, and every
 * handler asks again before acting: hiding is not enforcing.
 */
export function toolPermission(policy: Policy, tool: ToolIdentity): { allowed: true } | { allowed: false; reason: string } {
  if (policy.read_only && !tool.readOnly) return { allowed: false, reason: "the local policy is read-only: no write is allowed" };
  if (policy.tools?.deny?.includes(tool.name)) return { allowed: false, reason: `the local policy denies the tool ${tool.name}` };
  if (policy.tools?.allow && !policy.tools.allow.includes(tool.name)) {
    return { allowed: false, reason: `the local policy allows only the tools ${policy.tools.allow.join(", ")}` };
  }
  if (policy.toolsets && !policy.toolsets.includes(tool.toolset)) {
    return { allowed: false, reason: `the local policy does not enable the toolset ${tool.toolset}` };
  }
  return { allowed: true };
}
