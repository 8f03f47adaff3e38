import { existsSync } from "node:fs";
import { isDatabaseUrl, streamVerifyAuditLog, type AuditVerdict } from "@custody/shared";

/**
 * `custody-mcp verify-audit <file>` or `--store postgres://...`: 0 when the chain holds, 1 when
 * broken, 2 when the file is missing or cannot be read, or the database cannot be read (the
 * message masks its password). Both stream, so memory stays bounded whatever the log's size.
 */
export async function verifyAuditCommand(target: string, out: (line: string) => void): Promise<number> {
  let verdict: AuditVerdict;
  if (isDatabaseUrl(target)) {
    const { verifyPostgresAudit } = await import("../on-demand/postgres-store.js");
    try {
      verdict = await verifyPostgresAudit(target);
    } catch (error) {
      out(`verify-audit: ${(error as Error).message}`);
      return 2;
    }
  } else {
    if (!existsSync(target)) {
      out(`verify-audit: ${target}: no such file`);
      return 2;
    }
    try {
      verdict = await streamVerifyAuditLog(target);
    } catch (error) {
      out(`verify-audit: ${target}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
      return 2;
    }
  }
  if (verdict.ok) {
    out(`ok: ${verdict.records} records, chain intact, last hash ${verdict.lastHash}`);
    return 0;
  }
  out(`BROKEN: ${verdict.reason} (${verdict.records} records verified before it)`);
  return 1;
}
