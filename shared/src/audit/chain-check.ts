import { createHash } from "node:crypto";
import { AuditRecord, GENESIS_HASH } from "./audit-entry.js";
import { canonicalJson } from "./canonical-json.js";

export function auditHash(record: Omit<AuditRecord, "hash">): string {
  return createHash("sha256").update(canonicalJson(record)).digest("hex");
}

export function withoutHash(record: AuditRecord): Omit<AuditRecord, "hash"> {
  const { hash: _hash, ...unsigned } = record;
  return unsigned;
}

type LineReading = { record: AuditRecord } | { reason: string };

function parseLine(line: string): LineReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { reason: "not JSON" };
  }
  const result = AuditRecord.safeParse(parsed);
  return result.success ? { record: result.data } : { reason: "not an audit record" };
}

const HASH_MISMATCH = "hash does not match the line's content";

/** A line of the log as a record whose hash matches its content, or why it is not one. */
export function intactRecord(line: string): LineReading {
  const reading = parseLine(line);
  if ("reason" in reading) return reading;
  return auditHash(withoutHash(reading.record)) === reading.record.hash ? reading : { reason: HASH_MISMATCH };
}

/** Where a chain stands after a line: its sequence number and hash (seq -1 and the genesis hash before the first). */
export interface ChainPoint {
  seq: number;
  hash: string;
}

export const CHAIN_START: ChainPoint = { seq: -1, hash: GENESIS_HASH };

/**
 * Checks lines one after another as the continuation of a chain: each must be an audit record
 * with the next sequence number, the previous line's hash as prev_hash, and a hash of its content.
 */
export class ChainCheck {
  #point: ChainPoint;

  constructor(after: ChainPoint = CHAIN_START) {
    this.#point = after;
  }

  get point(): ChainPoint {
    return this.#point;
  }

  /** The record of the next line, or why the chain breaks there. */
  next(line: string): LineReading {
    const reading = parseLine(line);
    if ("reason" in reading) return reading;
    const { record } = reading;
    const expected = this.#point.seq + 1;
    if (record.seq !== expected) return { reason: `sequence number ${record.seq}, expected ${expected}` };
    if (record.prev_hash !== this.#point.hash) return { reason: "prev_hash does not match the previous line's hash" };
    if (auditHash(withoutHash(record)) !== record.hash) return { reason: HASH_MISMATCH };
    this.#point = { seq: record.seq, hash: record.hash };
    return { record };
  }
}
