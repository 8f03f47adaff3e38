import { existsSync } from "node:fs";
import { streamVerifyAuditLog } from "@custody/shared";

/**
 * `custody-mcp verify-audit <file>`: 0 when the chain holds, 1 when broken, 2 when the file is
 * missing or cannot be read. Streams the log, so memory stays bounded whatever its size.
 */
export async function verifyAuditCommand(file: string, out: (line: string) => void): Promise<number> {
  if (!existsSync(file)) {
    out(`verify-audit: ${file}: no such file`);
    return 2;
  }
  let verdict: Awaited<ReturnType<typeof streamVerifyAuditLog>>;
  try {
    verdict = await streamVerifyAuditLog(file);
  } catch (error) {
    out(`verify-audit: ${file}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
    return 2;
  }
  if (verdict.ok) {
    out(`ok: ${verdict.records} records, chain intact, last hash ${verdict.lastHash}`);
    return 0;
  }
  out(`BROKEN: ${verdict.reason} (${verdict.records} records verified before it)`);
  return 1;
}
