import type { Person } from "../identity/person.js";
import { grantFor } from "./person-grant.js";
import type { Policy, Role, Toolset } from "./policy.js";

export interface ToolIdentity {
  name: string;
  toolset: Toolset;
  /** True for tools that change nothing in the workspace. */
  readOnly: boolean;
}

/** A tool that changes something (a write kind's identity, a sync, an operator's creation) as a permission query. */
export function writeToolQuery(identity: { tool: string; toolset: Toolset }): ToolIdentity {
  return { name: identity.tool, toolset: identity.toolset, readOnly: false };
}

/** A tool as the MCP server lists it: read-only only when its annotations say so. */
export function listedToolQuery(tool: { name: string; toolset: Toolset; annotations?: { readOnlyHint?: boolean } | undefined }): ToolIdentity {
  return { name: tool.name, toolset: tool.toolset, readOnly: tool.annotations?.readOnlyHint === true };
}

/** A read tool by name (what a resource answers with the same read as). */
export function readToolQuery(name: string): ToolIdentity {
  return { name, toolset: "read", readOnly: true };
}

export type ToolVerdict = { allowed: true } | { allowed: false; reason: string };

type Rules = Pick<Policy, "read_only" | "tools" | "toolsets">;

function rulesVerdict(rules: Rules, tool: ToolIdentity, whose: string): ToolVerdict {
  if (rules.read_only && !tool.readOnly) return { allowed: false, reason: `${whose} is read-only: no write is allowed` };
  if (rules.tools?.deny?.includes(tool.name)) return { allowed: false, reason: `${whose} denies the tool ${tool.name}` };
  if (rules.tools?.allow && !rules.tools.allow.includes(tool.name)) {
    return { allowed: false, reason: `${whose} allows only the tools ${rules.tools.allow.join(", ")}` };
  }
  if (rules.toolsets && !rules.toolsets.includes(tool.toolset)) {
    return { allowed: false, reason: `${whose} does not enable the toolset ${tool.toolset}` };
  }
  return { allowed: true };
}

function roleName(role: Role): string {
  return `your role ${role.name} (local policy)`;
}

/**
 * Whether the policy lets this tool run at all, for a single user (no person) or for a signed-in
 * person through their role (which only narrows the policy). Surfaces hide refused tools, and
 * every handler asks again before acting: hiding is not enforcing.
 */
export function toolPermission(policy: Policy, tool: ToolIdentity, person: Person | null = null): ToolVerdict {
  const grant = grantFor(policy, person);
  if (grant.refusal !== null) return { allowed: false, reason: grant.refusal };
  const verdict = rulesVerdict(policy, tool, "the local policy");
  if (!verdict.allowed || grant.role === null) return verdict;
  return rulesVerdict(grant.role, tool, roleName(grant.role));
}
