import { isDatabaseUrl, resealAuditLog, type AuditRecord, type AuditSealKey, errorMessage } from "@custody/shared";

/**
 * `custody-mcp reseal-audit <file>` or `--store postgres://...`: after a person has looked at a
 * store its seal stopped, seals it as it now is (its chain verified whole first) with a `sealed`
 * record naming what the old seal said and what the store holds. 0 when sealed, 1 when its chain
 * is broken (never sealed), 2 when it cannot be read.
 */
export async function resealAuditCommand(target: string, key: AuditSealKey, out: (line: string) => void): Promise<number> {
  let record: AuditRecord;
  try {
    if (isDatabaseUrl(target)) {
      const { resealPostgresAudit } = await import("@custody/shared/postgres-store");
      record = await resealPostgresAudit(target, key);
    } else {
      record = await resealAuditLog(target, key);
    }
  } catch (error) {
    const message = errorMessage(error);
    out(`reseal-audit: ${message}`);
    return /not a valid chain/.test(message) ? 1 : 2;
  }
  const details = record.details ?? {};
  out(`resealed ${target} with key id ${String(details.key_id)}: sealed record ${record.seq}`);
  out(`  the store held: ${describeSealed(details.log)}`);
  out(`  the seal it replaces said: ${describeSealed(details.previous_seal)}`);
  return 0;
}

function describeSealed(value: unknown): string {
  if (value === null || typeof value !== "object") return "nothing (no seal, or no record)";
  const { seq, bytes, key_id } = value as { seq?: unknown; bytes?: unknown; key_id?: unknown };
  return `last record ${String(seq)}${bytes === undefined ? "" : `, ${String(bytes)} bytes`}${key_id === undefined ? "" : ` (key id ${String(key_id)})`}`;
}
