import { existsSync } from "node:fs";
import {
  describePerson,
  isDatabaseUrl,
  sealVerdict,
  streamVerifyAuditLog,
  type AuditSealKey,
  type AuditVerdict,
  type PersonTally,
  type SealedAt,
  type SealVerdict,
  errorMessage,
} from "@custody/shared";

/**
 * `custody-mcp verify-audit <file>` or `--store postgres://...`: 0 when the chain holds and holds
 * its seal, 1 when broken, shortened, not holding its sealed line, its seal missing where the store
 * had one, or not trusted (never ok where the store would refuse to open), 2 when the file is
 * missing or cannot be read, or the database cannot be read (the message masks its password). Both
 * stream, so memory stays bounded whatever the log's size or the length of a line. `key` checks the
 * seal's MAC (a seal of another key is not trusted); without one the seal's content is compared unchecked.
 */
export async function verifyAuditCommand(target: string, out: (line: string) => void, key: AuditSealKey | null = null): Promise<number> {
  let verdict: AuditVerdict;
  let seal: SealVerdict;
  if (isDatabaseUrl(target)) {
    const { verifySealedPostgresAudit } = await import("@custody/shared/postgres-store");
    try {
      ({ verdict, seal } = await verifySealedPostgresAudit(target, key));
    } catch (error) {
      out(`verify-audit: ${errorMessage(error)}`);
      return 2;
    }
  } else {
    if (!existsSync(target)) {
      out(`verify-audit: ${target}: no such file`);
      return 2;
    }
    try {
      verdict = await streamVerifyAuditLog(target);
      seal = sealVerdict(target, key);
    } catch (error) {
      out(`verify-audit: ${target}: cannot be read (${errorMessage(error)})`);
      return 2;
    }
  }
  if (!verdict.ok) {
    out(`BROKEN: ${verdict.reason} (${verdict.records} records verified before it)`);
    return 1;
  }
  const sealProblem = problemWithSeal(seal, verdict);
  if (sealProblem !== null) {
    out(sealProblem);
    return 1;
  }
  out(`ok: ${verdict.records} records, chain intact, last hash ${verdict.lastHash}`);
  out("by person:");
  for (const tally of verdict.people) out(`  ${personLine(tally)}`);
  if (verdict.otherPeopleRecords > 0) out(`  ${verdict.otherPeopleRecords} records of further people (only the first ${verdict.people.length} are named)`);
  out(sealLine(seal));
  return 0;
}

/** An intact chain that is not the one sealed: cut short, another one, or a seal that cannot be trusted. */
function problemWithSeal(seal: SealVerdict, verdict: AuditVerdict & { ok: true }): string | null {
  const ends =
    `the chain is intact but ends at record ${verdict.records - 1} (${verdict.records} ` +
    `records${seal.kind === "shortened" && seal.bytes !== undefined ? `, ${seal.bytes} bytes` : ""})`;
  const sealed = (at: SealedAt) => `record ${at.seq}${at.offset === undefined ? "" : `, ending at byte ${at.offset}`} (hash ${at.hash})`;
  if (seal.kind === "shortened") return `SHORTENED: ${ends}; its seal says its last record is ${sealed(seal.seal)}: records were cut from its end`;
  if (seal.kind === "extended")
    return `NOT SEALED TO ITS END: ${ends}; its seal says its last record is ${sealed(seal.seal)}: the records after it were not appended by the guard`;
  if (seal.kind === "differs") return `NOT THE SEALED LOG: ${ends}; its seal says its last record is ${sealed(seal.seal)}, and another record is there`;
  if (seal.kind === "unauthentic") return `SEAL NOT TRUSTED: ${seal.reason}`;
  if (seal.kind === "missing") return `SEAL MISSING: ${seal.reason}; the store refuses to open it`;
  if (seal.kind === "unsealed" && verdict.lastSealed !== null) {
    return `SEAL MISSING: the chain holds a sealed record (record ${verdict.lastSealed}), but it has no seal; the store refuses to open it`;
  }
  return null;
}

function sealLine(seal: SealVerdict): string {
  if (seal.kind !== "holds") return "seal: none (a log written before seals, or never appended to since)";
  const checked = seal.authenticated
    ? "its MAC checked with the seal key"
    : `not authenticated: sealed with key id ${seal.keyId}, and no such key given or found`;
  // A database's empty chain is sealed at its start (seq -1) when the store creates it.
  return seal.seal.seq < 0 ? `seal: holds the empty chain (${checked})` : `seal: holds its sealed record ${seal.seal.seq} (${checked})`;
}

/** "Alice Martin <alice@example.com> (subject alice): 7 records: 3 dry_run, 2 confirmed, 2 submitted; confirmed through 1 page, 1 form". */
function personLine(tally: PersonTally): string {
  const who = tally.person === null ? "not signed in (a single user)" : describePerson(tally.person);
  const through = countsText(tally.confirmed_through);
  return (
    `${who}: ${tally.records} record${tally.records === 1 ? "" : "s"}: ` +
    `${countsText(tally.events)}${through === "" ? "" : `; confirmed through ${through}`}`
  );
}

/** "3 dry_run, 2 confirmed": the largest count first. */
function countsText(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([name, count]) => `${count} ${name}`)
    .join(", ");
}
