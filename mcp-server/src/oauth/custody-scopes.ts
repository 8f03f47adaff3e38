/** Reading the workspace: every MCP request needs it. */
export const READ_SCOPE = "custody:read";
/** Calling a tool that changes something (its listing's readOnlyHint is not true). */
export const WRITE_SCOPE = "custody:write";
export const CUSTODY_SCOPES = [READ_SCOPE, WRITE_SCOPE] as const;

const MAX_SCOPES = 256;

function scopeList(value: unknown): string[] {
  if (typeof value === "string") return value.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(value)) return value.filter((scope): scope is string => typeof scope === "string");
  return [];
}

/**
 * The scopes an access token grants: `scope`, space-separated (RFC 9068), and `scp`, a list (Okta)
 * or a space-separated string (Entra ID). At most 256 are read.
 */
export function grantedScopes(claims: Readonly<Record<string, unknown>>): string[] {
  return [...new Set([...scopeList(claims.scope), ...scopeList(claims.scp)])].slice(0, MAX_SCOPES);
}
