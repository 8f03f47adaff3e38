import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { AuditRecord, GENESIS_HASH, type AuditInput } from "./audit-entry.js";
import { boundedAuditInput } from "./audit-bounds.js";
import { withFileLock } from "./file-lock.js";
import { canonicalJson } from "./canonical-json.js";

export function auditHash(record: Omit<AuditRecord, "hash">): string {
  return createHash("sha256").update(canonicalJson(record)).digest("hex");
}

/**
 * An append-only JSONL audit log; each line carries the hash of the previous one, so a
 * removed, reordered or edited line breaks the chain. Each append is fsynced. Several processes
 * may share one log (an MCP server per client): an append takes a lock file and continues the
 * chain from the file's last line, not from what this process wrote last.
 */
export class AuditLog {
  constructor(
    readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    mkdirSync(dirname(path), { recursive: true });
    if (existsSync(path)) {
      const verdict = verifyAuditLog(path);
      if (!verdict.ok) throw new Error(`audit log ${path} is not a valid chain (${verdict.reason}); refusing to append to it`);
    }
  }

  append(input: AuditInput): AuditRecord {
    return withFileLock(`${this.path}.lock`, () => this.#appendLocked(input));
  }

  /**
   * Appends `input` only if `admit`, run under the log's lock on the file as every writer left it,
   * returns true; returns null otherwise. No other writer (another process included) can append
   * between the check and the append, so two writers cannot both pass the same check.
   */
  appendIf(input: AuditInput, admit: () => boolean): AuditRecord | null {
    return withFileLock(`${this.path}.lock`, () => (admit() ? this.#appendLocked(input) : null));
  }

  /** The log's clock: the time written on its records. */
  time(): Date {
    return this.now();
  }

  #appendLocked(input: AuditInput): AuditRecord {
    const tail = chainTail(this.path);
    const unsigned = { ...(bigintsAsStrings(boundedAuditInput(input)) as AuditInput), seq: tail.nextSeq, at: this.now().toISOString(), prev_hash: tail.lastHash };
    const record = AuditRecord.parse({ ...unsigned, hash: auditHash(unsigned) });
    const fd = openSync(this.path, "a");
    try {
      writeSync(fd, `${canonicalJson(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return record;
  }
}

/** Where the chain continues: the hash and sequence after the file's last line, which must be intact. */
function chainTail(path: string): { lastHash: string; nextSeq: number } {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const last = text.trimEnd().split("\n").at(-1) ?? "";
  if (last === "") return { lastHash: GENESIS_HASH, nextSeq: 0 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(last);
  } catch {
    parsed = undefined;
  }
  const record = AuditRecord.safeParse(parsed);
  if (!record.success || auditHash(withoutHash(record.data)) !== record.data.hash) {
    throw new Error(`audit log ${path}: its last line is not an intact audit record; refusing to append to it`);
  }
  return { lastHash: record.data.hash, nextSeq: record.data.seq + 1 };
}

function withoutHash(record: AuditRecord): Omit<AuditRecord, "hash"> {
  const { hash: _hash, ...unsigned } = record;
  return unsigned;
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
