import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { AuditRecord, GENESIS_HASH, type AuditInput } from "./audit-entry.js";
import { canonicalJson } from "./canonical-json.js";

export function auditHash(record: Omit<AuditRecord, "hash">): string {
  return createHash("sha256").update(canonicalJson(record)).digest("hex");
}

/**
 * An append-only JSONL audit log; each line carries the hash of the previous one, so a
 * removed, reordered or edited line breaks the chain. Each append is fsynced.
 */
export class AuditLog {
  private lastHash = GENESIS_HASH;
  private nextSeq = 0;

  constructor(
    readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    mkdirSync(dirname(path), { recursive: true });
    if (existsSync(path)) {
      const verdict = verifyAuditLog(path);
      if (!verdict.ok) throw new Error(`audit log ${path} is not a valid chain (${verdict.reason}); refusing to append to it`);
      this.lastHash = verdict.lastHash;
      this.nextSeq = verdict.records;
    }
  }

  append(input: AuditInput): AuditRecord {
    const unsigned = { ...(bigintsAsStrings(input) as AuditInput), seq: this.nextSeq, at: this.now().toISOString(), prev_hash: this.lastHash };
    const record = AuditRecord.parse({ ...unsigned, hash: auditHash(unsigned) });
    const fd = openSync(this.path, "a");
    try {
      writeSync(fd, `${canonicalJson(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.lastHash = record.hash;
    this.nextSeq += 1;
    return record;
  }
}

/** Amounts in a record are written as decimal strings, so any JSON reader reads them back exactly. */
function bigintsAsStrings(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(bigintsAsStrings);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, bigintsAsStrings(item)]));
  }
  return value;
}

export type AuditVerdict =
  | { ok: true; records: number; lastHash: string }
  | { ok: false; records: number; line: number; reason: string };

/** Checks every line of an audit log: its shape, its sequence number and both hashes. */
export function verifyAuditLog(path: string): AuditVerdict {
  const lines = readFileSync(path, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  let previous = GENESIS_HASH;
  for (const [index, line] of lines.entries()) {
    const fail = (reason: string): AuditVerdict => ({ ok: false, records: index, line: index + 1, reason: `line ${index + 1}: ${reason}` });
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return fail("not JSON");
    }
    const result = AuditRecord.safeParse(parsed);
    if (!result.success) return fail("not an audit record");
    const { hash, ...unsigned } = result.data;
    if (unsigned.seq !== index) return fail(`sequence number ${unsigned.seq}, expected ${index}`);
    if (unsigned.prev_hash !== previous) return fail("prev_hash does not match the previous line's hash");
    if (auditHash(unsigned) !== hash) return fail("hash does not match the line's content");
    previous = hash;
  }
  return { ok: true, records: lines.length, lastHash: previous };
}
