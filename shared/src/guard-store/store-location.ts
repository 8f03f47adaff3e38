import { homedir } from "node:os";
import { join } from "node:path";

/** Whether a store setting names a PostgreSQL database (a postgres:// URL) rather than a file of the embedded store. */
export function isDatabaseUrl(setting: string): boolean {
  return /^postgres(ql)?:\/\//i.test(setting);
}

/** A database URL with its password (user info or `password` parameter) masked; throws when it is not a URL. */
export function databaseUrlShown(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== "") parsed.password = "***";
  if (parsed.searchParams.has("password")) parsed.searchParams.set("password", "***");
  return parsed.toString();
}

/**
 * The embedded store's audit log when none is configured, the same for every surface (the MCP
 * server, the VS Code extension and the server it provides): a person's editor and their assistant
 * then count one daily allowance and remember each other's writes. One file for every operator of
 * the machine's user: records name their operator, and a team limit spans operators.
 */
export function defaultAuditLogPath(home: string = homedir()): string {
  return join(home, ".custody-mcp", "audit.jsonl");
}
