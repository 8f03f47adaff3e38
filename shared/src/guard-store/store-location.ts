import { homedir } from "node:os";
import { join } from "node:path";

/** Whether a store setting names a PostgreSQL database (a postgres:// URL) rather than a file of the embedded store. */
export function isDatabaseUrl(setting: string): boolean {
  return /^postgres(ql)?:\/\//i.test(setting);
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
