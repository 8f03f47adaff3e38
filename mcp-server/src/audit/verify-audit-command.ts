import { existsSync } from "node:fs";
import { verifyAuditLog } from "@custody/shared";

/** `custody-mcp verify-audit <file>`: 0 when the chain holds, 1 when broken, 2 when the file is missing. */
export function verifyAuditCommand(file: string, out: (line: string) => void): number {
  if (!existsSync(file)) {
    out(`verify-audit: ${file}: no such file`);
    return 2;
  }
  const verdict = verifyAuditLog(file);
  if (verdict.ok) {
    out(`ok: ${verdict.records} records, chain intact, last hash ${verdict.lastHash}`);
    return 0;
  }
  out(`BROKEN: ${verdict.reason} (${verdict.records} records verified before it)`);
  return 1;
}
