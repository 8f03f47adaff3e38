import { existsSync } from "node:fs";
import { describePerson, isDatabaseUrl, streamVerifyAuditLog, type AuditVerdict, type PersonTally } from "@custody/shared";

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
    out("by person:");
    for (const tally of verdict.people) out(`  ${personLine(tally)}`);
    if (verdict.otherPeopleRecords > 0) out(`  ${verdict.otherPeopleRecords} records of further people (only the first ${verdict.people.length} are named)`);
    return 0;
  }
  out(`BROKEN: ${verdict.reason} (${verdict.records} records verified before it)`);
  return 1;
}

/** "Alice Martin <alice@example.com> (subject alice): 7 records: 3 dry_run, 2 confirmed, 2 submitted". */
function personLine(tally: PersonTally): string {
  const who = tally.person === null ? "not signed in (a single user)" : describePerson(tally.person);
  const events = Object.entries(tally.events)
    .sort(([, a], [, b]) => b - a)
    .map(([event, count]) => `${count} ${event}`)
    .join(", ");
  return `${who}: ${tally.records} record${tally.records === 1 ? "" : "s"}: ${events}`;
}
