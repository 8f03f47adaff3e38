import type { Writable } from "node:stream";
import { errorMessage } from "@custody/shared";

/**
 * `custody-mcp export-audit --store postgres://...`: the database's chain on `out` as JSONL, line for
 * line what a file store holds (verify-audit accepts the file); 0 when written, 2 when the database
 * cannot be read (the message, on stderr, masks its password).
 */
export async function exportAuditCommand(storeUrl: string, out: Writable, log: (line: string) => void): Promise<number> {
  const { exportPostgresAudit } = await import("@custody/shared/postgres-store");
  try {
    const count = await exportPostgresAudit(storeUrl, out);
    log(`export-audit: ${count} records written`);
    return 0;
  } catch (error) {
    log(`export-audit: ${errorMessage(error)}`);
    return 2;
  }
}
