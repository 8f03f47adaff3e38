import { existsSync } from "node:fs";
import type { AuditLedger } from "./audit-ledger.js";
import { readLedgerFile } from "./ledger-file.js";
import { intactRecord } from "./chain-check.js";
import { lineEndingAt, logSize, type ReadCounter } from "./log-lines.js";
import { AuditSealError, readSealFile, resealHint, type SealedPoint } from "./seal-file.js";
import type { AuditSealKey } from "./seal-key.js";
import { logRegisterName, registeredSeal, type RegisteredSeal } from "./sealed-log-register.js";
import type { ChainPoint } from "./chain-check.js";

/** Where a log's seal is kept: beside it. */
export function sealPathOf(log: string): string {
  return `${log}.seal`;
}

/** Whether the line ending at the point's offset is intact and the one sealed there (read backwards from there, not from the log's start). */
export function logHolds(log: string, point: SealedPoint, counter?: ReadCounter): boolean {
  const line = lineEndingAt(log, point.offset, counter);
  if (line === null) return false;
  const reading = intactRecord(line);
  return !("reason" in reading) && reading.record.seq === point.seq && reading.record.hash === point.hash;
}

/**
 * What the key's register (`registered`, registeredSeal, read before the seal: a writer writes the
 * seal, then the register) says the log's seal lacks, or null: the log was sealed further than its
 * seal (`seal`, null when there is none) says, or at the same record with another hash (a copy of a
 * chain a reseal replaced, put back). `size`: the log's length.
 */
export function registerAhead(registered: RegisteredSeal | null, log: string, seal: ChainPoint | null, size: number): string | null {
  if (registered === null || (seal !== null && (seal.seq > registered.seq || (seal.seq === registered.seq && seal.hash === registered.hash)))) return null;
  const sealPath = sealPathOf(log);
  const said = `the seal key's register ${registered.path} says this log was sealed through record ${registered.seq} (hash ${registered.hash.slice(0, 12)}…)`;
  const found =
    seal === null
      ? size === 0
        ? `the log is ${existsSync(log) ? "empty" : "missing"} and has no seal ${sealPath} (removed whole?)`
        : `it has no seal ${sealPath}`
      : seal.seq < registered.seq
        ? `its seal ${sealPath} says record ${seal.seq} (an earlier copy put back?)`
        : `its seal ${sealPath} says record ${seal.seq} with hash ${seal.hash.slice(0, 12)}… (another log's copy put back?)`;
  return `${said}, but ${found}`;
}

/**
 * The log's seal, checked with the key and against the log: null when there is none. A log that
 * does not hold its sealed line (shorter than it, or another line there) is an AuditSealError
 * naming both. Reads the seal and one line: a start can afford it.
 */
export function checkSealedTail(log: string, key: AuditSealKey, counter?: ReadCounter): SealedPoint | null {
  // The register before the seal: a writer writes the seal, then the register, so a register read first is never ahead of the seal read after it.
  const registered = registeredSeal(key, logRegisterName(log));
  const sealPath = sealPathOf(log);
  const seal = readSealFile(sealPath, key, log);
  // After the seal (a writer seals after its line is on disk), and only a regular file: a pipe or a link there is not "shortened".
  const size = logSize(log);
  const behind = registerAhead(registered, log, seal, size);
  if (behind !== null) throw new AuditSealError(`audit log ${log}: ${behind}; ${resealHint(log)}`);
  if (seal === null) return null;
  const sealed = `record ${seal.seq} ending at byte ${seal.offset}, hash ${seal.hash.slice(0, 12)}…`;
  if (size < seal.offset) {
    throw new AuditSealError(
      `audit log ${log} was shortened: it holds ${size} bytes, but its seal ${sealPath} says its last line is ${sealed}; ${resealHint(log)}`,
    );
  }
  if (!logHolds(log, seal, counter)) {
    throw new AuditSealError(
      `audit log ${log} does not hold its sealed line: its seal ${sealPath} says ${sealed}, and the log has another line there; ${resealHint(log)}`,
    );
  }
  return seal;
}

/** Where a log's ledger is kept: beside it. */
export function ledgerPathOf(log: string): string {
  return `${log}.ledger.json`;
}

/**
 * What an opener of the log may start from: its seal checked against the log (checkSealedTail)
 * and its saved ledger checked against its MAC (null when missing or of another version: it is
 * rebuilt). A sealed ledger beside a log without a seal means the seal was removed: an AuditSealError.
 */
export function sealedStart(log: string, key: AuditSealKey, counter?: ReadCounter): { seal: SealedPoint | null; saved: AuditLedger | null } {
  const seal = checkSealedTail(log, key, counter);
  if (!existsSync(log)) return { seal, saved: null };
  const saved = readLedgerFile(ledgerPathOf(log), key, log);
  if (seal === null && saved !== null)
    throw new AuditSealError(`audit log ${log}: its seal ${sealPathOf(log)} is missing but its ledger is sealed; ${resealHint(log)}`);
  return { seal, saved };
}
