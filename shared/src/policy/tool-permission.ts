import type { Person } from "../identity/person.js";
import { localText, renderText, type LocalText } from "../l10n/translate.js";
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

/** A refusal's `reason` in English (recorded, answered by the MCP server); `text` the same as its template and values, for a surface to translate. */
export type ToolVerdict = { allowed: true } | { allowed: false; reason: string; text: LocalText };

function refused(text: LocalText): ToolVerdict {
  return { allowed: false, reason: renderText(text), text };
}

type Rules = Pick<Policy, "read_only" | "tools" | "toolsets">;

function rulesVerdict(rules: Rules, tool: ToolIdentity, whose: LocalText): ToolVerdict {
  if (rules.read_only && !tool.readOnly) return refused(localText("{0} is read-only: no write is allowed", whose));
  if (rules.tools?.deny?.includes(tool.name)) return refused(localText("{0} denies the tool {1}", whose, tool.name));
  if (rules.tools?.allow && !rules.tools.allow.includes(tool.name)) {
    return refused(localText("{0} allows only the tools {1}", whose, rules.tools.allow.join(", ")));
  }
  if (rules.toolsets && !rules.toolsets.includes(tool.toolset)) {
    return refused(localText("{0} does not enable the toolset {1}", whose, tool.toolset));
  }
  return { allowed: true };
}

function roleName(role: Role): LocalText {
  return localText("your role {0} (local policy)", role.name);
}

/**
 * Whether the policy lets this tool run at all, for a single user (no person) or for a signed-in
 * person through their role (which only narrows the policy). Surfaces hide refused tools, and
 * every handler asks again before acting: hiding is not enforcing.
 */
export function toolPermission(policy: Policy, tool: ToolIdentity, person: Person | null = null): ToolVerdict {
  const grant = grantFor(policy, person);
  if (grant.refusalText !== null) return refused(grant.refusalText);
  const verdict = rulesVerdict(policy, tool, localText("the local policy"));
  if (!verdict.allowed || grant.role === null) return verdict;
  return rulesVerdict(grant.role, tool, roleName(grant.role));
}
