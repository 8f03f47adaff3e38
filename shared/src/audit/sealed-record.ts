import { AuditRecord, type AuditInput } from "./audit-entry.js";
import { boundedAuditInput } from "./audit-bounds.js";
import { auditHash } from "./chain-check.js";
import { canonicalJson } from "./canonical-json.js";

/** Where a record goes in its chain: its sequence number and the hash of the record before it. */
export interface ChainPlace {
  seq: number;
  prevHash: string;
}

/**
 * The record an append writes at a place in the chain, stamped with its time and hash, in every
 * store: a long input kept only as its bounded preview and digest (boundedAuditInput), amounts
 * (bigints) as decimal strings so that any JSON reader reads them back exactly.
 */
export function sealAuditRecord(input: AuditInput, place: ChainPlace, at: Date): AuditRecord {
  // A single user's record names no person: the key is left out rather than null.
  const { person, ...rest } = input;
  const named = person == null ? rest : { ...rest, person };
  const plain = JSON.parse(
    JSON.stringify(boundedAuditInput(named), (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)),
  ) as AuditInput;
  const unsigned = { ...plain, seq: place.seq, at: at.toISOString(), prev_hash: place.prevHash };
  return AuditRecord.parse({ ...unsigned, hash: auditHash(unsigned) });
}

/** A record as one line of the JSONL log (without its newline): what every store writes and exports. */
export function auditLine(record: AuditRecord): string {
  return canonicalJson(record);
}
